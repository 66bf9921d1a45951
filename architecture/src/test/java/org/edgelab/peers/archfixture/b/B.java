package org.edgelab.peers.archfixture.b;

import org.edgelab.peers.archfixture.a.A;

/** The other half of a package cycle, for the test that the cycle rule catches it (never run). */
public final class B {
    /** Uses the first half. */
    public A other() {
        return new A();
    }
}
