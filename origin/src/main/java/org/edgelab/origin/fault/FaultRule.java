package org.edgelab.origin.fault;

/**
 * A fault applied by configuration: every {@code everyNth} request the server receives (counting
 * from 1, so 1 means every request) gets {@code plan}. Immutable and thread-safe.
 *
 * @param everyNth how often the rule fires, at least 1
 * @param plan     what the chosen responses do differently
 */
public record FaultRule(long everyNth, FaultPlan plan) {

    /** Validates the period and the plan. */
    public FaultRule {
        if (everyNth < 1) {
            throw new IllegalArgumentException("every=" + everyNth + ": a fault rule fires every N >= 1 requests");
        }
        if (plan == null) {
            throw new IllegalArgumentException("a fault rule needs a plan");
        }
    }

    /** True if this rule fires for the request numbered {@code requestNumber} (from 1). */
    public boolean appliesTo(long requestNumber) {
        return requestNumber % everyNth == 0;
    }
}
