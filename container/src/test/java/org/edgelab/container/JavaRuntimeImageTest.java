package org.edgelab.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaRuntimeImageTest {

    @TempDir
    Path dir;

    /** A stand-in java.home without jmods: real ELF files, so ldd has something to list. */
    private Path fakeJavaHome() throws IOException {
        Path home = Files.createDirectories(dir.resolve("jdk"));
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib/server"));
        Files.createDirectories(home.resolve("man/man1"));
        Path realJava = Path.of(System.getProperty("java.home"));
        Files.copy(realJava.resolve("bin/java"), home.resolve("bin/java"));
        Files.copy(realJava.resolve("lib/libjli.so"), home.resolve("lib/libjli.so"));
        Files.writeString(home.resolve("man/man1/java.1"), "manual");
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17\"\n");
        return home;
    }

    @Test
    void withoutJmodsTheJavaHomeIsCopiedWithTheSystemLibrariesItLoads() throws IOException {
        JavaRuntimeImage runtime = new JavaRuntimeImage(fakeJavaHome());
        assertThat(runtime.linked()).isFalse();
        Path context = Files.createDirectories(dir.resolve("context"));

        runtime.assemble(context);

        Path rootfs = context.resolve("rootfs");
        Path java = rootfs.resolve("opt/edgelab/java/bin/java");
        assertThat(java).isRegularFile().isExecutable();
        assertThat(rootfs.resolve("opt/edgelab/java/lib/libjli.so")).isRegularFile();
        assertThat(rootfs.resolve("opt/edgelab/java/man")).doesNotExist();
        assertThat(rootfs.resolve("tmp")).isDirectory();
        assertThat(SharedLibraries.of(List.of(java)).stream().filter(l -> !l.normalize().startsWith(rootfs)))
                .isNotEmpty()
                .allSatisfy(library -> assertThat(rootfs.resolve(library.toString().substring(1))).isRegularFile());
        assertThat(Files.readString(context.resolve("Dockerfile"))).isEqualTo(runtime.dockerfile())
                .startsWith("FROM scratch\n").contains("ENTRYPOINT [\"/opt/edgelab/java/bin/java\"]");
    }

    @Test
    void theImageNameFollowsTheJdkAndIsStableOtherwise() throws IOException {
        Path home = fakeJavaHome();
        String name = new JavaRuntimeImage(home).imageName();
        assertThat(name).matches("edgelab-java:[0-9a-f]{16}").isEqualTo(new JavaRuntimeImage(home).imageName());
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.99\"\n");
        assertThat(new JavaRuntimeImage(home).imageName()).isNotEqualTo(name);
        assertThat(JavaRuntimeImage.current().linked()).isEqualTo(Files.isDirectory(Path.of(System.getProperty("java.home"), "jmods")));
    }
}
