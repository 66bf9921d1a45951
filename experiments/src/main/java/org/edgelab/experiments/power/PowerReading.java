package org.edgelab.experiments.power;

/**
 * The mean power of one window and how it was obtained. Immutable and thread-safe.
 *
 * @param watts  mean watts, NaN when there is no figure
 * @param source {@link #MODELLED}, {@link #MEASURED} or {@link #NONE} (written to results column {@code power_source})
 */
public record PowerReading(double watts, String source) {
    /** Computed from a model and measured utilisation. */
    public static final String MODELLED = "modelled";
    /** Read from the machine's energy counters. */
    public static final String MEASURED = "measured";
    /** No figure. */
    public static final String NONE = "none";

    /** A reading without a figure. */
    public static final PowerReading ABSENT = new PowerReading(Double.NaN, NONE);

    /** Whether there is a figure. */
    public boolean present() {
        return !Double.isNaN(watts);
    }
}
