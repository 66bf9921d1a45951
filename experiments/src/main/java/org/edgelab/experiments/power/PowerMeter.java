package org.edgelab.experiments.power;

/**
 * Gives the power of measurement windows (one per repetition). Implementations are thread-safe; each
 * {@link Window} is used by one thread.
 */
public interface PowerMeter {

    /** How the figures are obtained, for the manifest's methods (says modelled or measured, and from what). */
    String method();

    /** Starts a window now (reads the counters where it measures). */
    Window start();

    /** One measurement window. */
    interface Window {
        /** Ends the window and returns its mean power given what the run used. */
        PowerReading finish(Utilisation utilisation);
    }

    /**
     * What the systems under test used during a window.
     *
     * @param seconds     the window's length
     * @param busyCores   mean busy cores of the server (CPU seconds / seconds, capped at the profile's cores)
     * @param activeDisks disks in use
     */
    record Utilisation(double seconds, double busyCores, int activeDisks) {
    }
}
