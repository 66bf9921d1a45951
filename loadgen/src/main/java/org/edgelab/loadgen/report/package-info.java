/**
 * Reports of a run: a wrk-like summary, CSV and JSON.
 */
package org.edgelab.loadgen.report;
