package org.edgelab.plugin;

/** Something users select by name: a storage engine, an eviction policy, a workload, a target. */
public interface NamedPlugin {
    /** Returns the unique lower-case name the plugin is selected by. */
    String name();

    /** Returns one line saying what the plugin is, for listings and error messages. */
    String description();
}
