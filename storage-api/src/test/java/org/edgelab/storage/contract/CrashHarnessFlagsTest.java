package org.edgelab.storage.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The crash child inherits what it needs from the test JVM: the real class path and the --add-opens flags. */
class CrashHarnessFlagsTest {

    @Test
    void childClassPathHoldsTheTestClassesAndTheApi() {
        String cp = CrashHarness.classPath();
        assertThat(Arrays.asList(cp.split(File.pathSeparator)))
                .as("class path entries " + cp)
                .anySatisfy(e -> assertThat(e).contains("test-classes"))
                .anySatisfy(e -> assertThat(e).endsWith("classes"));
    }

    @Test
    void addOpensFlagsOfTheParentArePassedOn() {
        // the parent POM's surefire argLine opens java.nio for lmdbjava; the child must get it too
        assertThat(String.join(" ", CrashHarness.inheritedJvmFlags())).contains("java.base/java.nio=ALL-UNNAMED");
    }
}
