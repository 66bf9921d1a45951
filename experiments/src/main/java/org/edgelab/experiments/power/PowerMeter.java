package org.edgelab.experiments.power;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Gives the power of measurement windows (one per repetition). Implementations are thread-safe; each
 * {@link Window} is used by one thread.
 */
public interface PowerMeter {

    /** How the figures are obtained, for the manifest's methods (says modelled or measured, and from what). */
    String method();

    /** Starts a window now (reads the counters where it measures). */
    Window start();

    /** A meter that says {@code method} and starts each window with {@code start}. */
    static PowerMeter of(String method, Supplier<Window> start) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(start, "start");
        return new PowerMeter() {
            @Override
            public String method() {
                return method;
            }

            @Override
            public Window start() {
                return start.get();
            }
        };
    }

    /** A meter that gives no figures (every window reads {@link PowerReading#ABSENT}), saying why in {@code method}. */
    static PowerMeter absent(String method) {
        return of(method, () -> u -> PowerReading.ABSENT);
    }

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
