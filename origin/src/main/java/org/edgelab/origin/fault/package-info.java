/** Fault injection: per-response {@link org.edgelab.origin.fault.FaultPlan}s from URL queries and configured {@link org.edgelab.origin.fault.FaultRules}. */
package org.edgelab.origin.fault;
