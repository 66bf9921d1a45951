package org.edgelab.container;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The class path entries (jars and class directories) the runner's JVM loads classes from: the
 * {@code java.class.path} entries, plus every {@code Class-Path} entry of a jar's manifest (so that a JVM
 * started with {@code -jar edgelab-cli.jar}, or Surefire's manifest-only booter jar, yields the jars it
 * really uses), in order, without duplicates, existing entries only. Stateless and thread-safe.
 */
public final class RunnerClassPath {

    private RunnerClassPath() {
    }

    /** The entries of this JVM's class path. */
    public static List<Path> current() {
        return expand(System.getProperty("java.class.path", ""));
    }

    /** The entries of {@code classPath} (separated by the platform's path separator), manifests followed. */
    public static List<Path> expand(String classPath) {
        Set<Path> out = new LinkedHashSet<>();
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            if (!entry.isBlank()) {
                add(Path.of(entry).toAbsolutePath().normalize(), out);
            }
        }
        return List.copyOf(out);
    }

    private static void add(Path entry, Set<Path> out) {
        if (!Files.exists(entry) || !out.add(entry) || !Files.isRegularFile(entry)) {
            return;
        }
        for (Path referenced : manifestClassPath(entry)) {
            add(referenced, out);
        }
    }

    /** The entries a jar's manifest {@code Class-Path} names, resolved against the jar's folder. */
    static List<Path> manifestClassPath(Path jar) {
        Manifest manifest;
        try (JarFile file = new JarFile(jar.toFile())) {
            manifest = file.getManifest();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class path entry " + jar + " as a jar: " + e.getMessage(), e);
        }
        String classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
        if (classPath == null || classPath.isBlank()) {
            return List.of();
        }
        List<Path> entries = new ArrayList<>();
        URI base = jar.toAbsolutePath().getParent().toUri();
        for (String url : classPath.trim().split("\\s+")) {
            try {
                URI resolved = base.resolve(new URI(url));
                if ("file".equals(resolved.getScheme())) {
                    entries.add(Path.of(resolved).normalize());
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new IllegalArgumentException("the manifest of " + jar + " has a bad Class-Path entry '" + url + "': "
                        + e.getMessage(), e);
            }
        }
        return entries;
    }
}
