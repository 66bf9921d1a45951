package org.edgelab.cli;

import picocli.CommandLine;

/** Reports the version of the jar the command runs from, and the JVM. Stateless. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = EdgeLab.class.getPackage().getImplementationVersion();
        return new String[] {
            "edgelab " + (version == null ? "(development build)" : version),
            "JVM " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", " + Runtime.getRuntime().availableProcessors() + " cores"
        };
    }
}
