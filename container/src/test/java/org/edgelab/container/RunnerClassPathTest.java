package org.edgelab.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerClassPathTest {

    @TempDir
    Path dir;

    @Test
    void aLauncherJarBringsTheJarsItsManifestNamesRelativeOrAbsolute() throws IOException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path a = jar(lib.resolve("a.jar"), null);
        Path b = jar(dir.resolve("elsewhere-b.jar"), null);
        Path launcher = jar(dir.resolve("launcher.jar"), "lib/a.jar " + b.toUri() + " lib/missing.jar");

        assertThat(RunnerClassPath.expand(launcher.toString())).containsExactly(launcher, a, b);
    }

    @Test
    void directoriesAndJarsKeepTheirOrderWithoutDuplicatesOrMissingEntries() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path a = jar(dir.resolve("a.jar"), null);
        Path nested = jar(dir.resolve("nested.jar"), "a.jar");
        String classPath = String.join(java.io.File.pathSeparator, classes.toString(), nested.toString(), a.toString(),
                dir.resolve("gone.jar").toString(), "");

        assertThat(RunnerClassPath.expand(classPath)).containsExactly(classes, nested, a);
    }

    @Test
    void thisJvmsClassPathHoldsTheServersMainClasses() {
        assertThat(RunnerClassPath.current()).anySatisfy(p -> assertThat(p.toString()).contains("cache-server"))
                .anySatisfy(p -> assertThat(p.toString()).contains("origin"));
    }

    @Test
    void aCorruptJarIsNamed() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.jar"), "not a zip");
        assertThatThrownBy(() -> RunnerClassPath.expand(bad.toString())).hasMessageContaining(bad.toString());
    }

    private static Path jar(Path path, String classPath) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) {
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        }
        try (OutputStream out = Files.newOutputStream(path); JarOutputStream jar = new JarOutputStream(out, manifest)) {
            jar.flush();
        }
        return path;
    }
}
