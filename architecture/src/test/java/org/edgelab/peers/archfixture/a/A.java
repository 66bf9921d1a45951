package org.edgelab.peers.archfixture.a;

import org.edgelab.peers.archfixture.b.B;

/** One half of a package cycle, for the test that the cycle rule catches it (never run). */
public final class A {
    /** Uses the other half. */
    public B other() {
        return new B();
    }
}
