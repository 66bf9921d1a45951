package org.edgelab.loadgen;

import java.time.Duration;

/**
 * Loads and JIT-warms the client's classes once per test JVM, so timing assertions of the first test are
 * not about class loading on a busy machine. Test helper; thread-safe (synchronized).
 */
public final class Warm {
    private static boolean done;

    private Warm() {
    }

    public static synchronized void up() throws InterruptedException {
        if (done) {
            return;
        }
        done = true;
        try (StallingServer server = new StallingServer(-1, 0)) {
            LoadRunner.run(LoadConfig.builder().url("http://127.0.0.1:" + server.port() + "/objects/1000/warm")
                    .connections(2).threads(1).duration(Duration.ofSeconds(5)).requests(300).verify(false).build());
            LoadRunner.run(LoadConfig.builder().url("http://127.0.0.1:" + server.port() + "/warm")
                    .connections(2).threads(1).duration(Duration.ofMillis(300)).rate(RateSchedule.constant(500)).build());
        }
    }
}
