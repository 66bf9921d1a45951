package org.edgelab.link.kernel;

import java.time.Duration;

import org.edgelab.link.LinkShape;

/** A child JVM for {@link LinkCleanupTest}: opens a kernel link, prints its namespaces and the delay line's pid, and waits to be signalled or killed. */
public final class HoldLink {
    private HoldLink() {
    }

    public static void main(String[] args) throws Exception {
        KernelLink link = KernelLink.open(new LinkShape(100_000_000L, Duration.ofMillis(5)));
        System.out.println("namespaces " + String.join(",", link.fabric().namespaces()));
        System.out.println("delay-line " + link.fabric().delayLinePid());
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(2).toMillis());
    }
}
