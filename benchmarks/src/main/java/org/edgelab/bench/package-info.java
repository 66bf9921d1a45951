/**
 * JMH benchmarks of the storage engines (engines swept with an enum {@code @Param}) and the
 * restart-to-first-hit measurement, packaged as {@code benchmarks/target/benchmarks.jar}.
 */
package org.edgelab.bench;
