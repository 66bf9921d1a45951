package org.edgelab.experiments.runner.archfixture;

import org.edgelab.experiments.netns.NetnsTarget;

/** A runner class that names the netns target's class instead of its name, for the test that the rule catches it (never run). */
public final class NamesTheNetnsTarget {
    /** The target, made by class. */
    public NetnsTarget target() {
        return new NetnsTarget();
    }
}
