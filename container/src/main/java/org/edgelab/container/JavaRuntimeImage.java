package org.edgelab.container;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * The build context of the Java runtime image, {@code FROM scratch}: a runtime made by {@code jlink}
 * from this JVM's JDK with {@link #MODULES} (or, where the JDK has no {@code jmods}, a copy of its
 * {@code java.home}), at {@value #JAVA_HOME_IN_IMAGE}, plus every system library {@code ldd} lists for
 * its executables and libraries, at the same paths as on the host. No base image and no registry are
 * needed. Immutable and thread-safe; {@link #assemble} writes into a folder the caller owns.
 */
public final class JavaRuntimeImage {

    /** Where the runtime goes in the image. */
    public static final String JAVA_HOME_IN_IMAGE = "/opt/edgelab/java";
    /** The image's repository name; the tag is the content hash. */
    public static final String REPOSITORY = "edgelab-java";
    /**
     * The modules EdgeLab's servers need ({@code jdeps --print-module-deps} over the server jars gives
     * java.base, java.logging, jdk.management, jdk.unsupported), with a margin for libraries that load
     * optional ones reflectively (Jackson: java.sql, java.xml; Netty: java.naming).
     */
    public static final List<String> MODULES = List.of("java.base", "java.logging", "java.management", "jdk.management",
            "jdk.unsupported", "java.naming", "java.net.http", "java.xml", "java.sql", "jdk.crypto.ec", "jdk.zipfs");
    private static final List<String> JLINK_OPTIONS = List.of("--strip-debug", "--no-header-files", "--no-man-pages");
    private static final Set<String> NOT_COPIED = Set.of("jmods", "include", "man", "docs", "legal", "demo", "src.zip");
    private static final String FORMAT = "1";

    private final Path javaHome;

    JavaRuntimeImage(Path javaHome) {
        this.javaHome = javaHome.toAbsolutePath().normalize();
    }

    /** The image of this JVM's runtime. */
    public static JavaRuntimeImage current() {
        return new JavaRuntimeImage(Path.of(System.getProperty("java.home")));
    }

    /** Whether the runtime is made with jlink (the JDK has {@code jmods} and the jlink tool); else java.home is copied. */
    public boolean linked() {
        return Files.isDirectory(javaHome.resolve("jmods")) && ToolProvider.findFirst("jlink").isPresent();
    }

    /** The Dockerfile; the build context holds the root file system at {@code rootfs/}. */
    public String dockerfile() {
        return "FROM scratch\n"
                + "COPY rootfs/ /\n"
                + "ENV JAVA_HOME=" + JAVA_HOME_IN_IMAGE + " LANG=C.UTF-8\n"
                + "ENTRYPOINT [\"" + JAVA_HOME_IN_IMAGE + "/bin/java\"]\n"
                + "LABEL org.edgelab.image=java-runtime\n";
    }

    /**
     * The image name, {@code edgelab-java:<hash>}: the hash covers the JDK (its path and {@code release}
     * file), how the runtime is made and the Dockerfile. A system library upgrade alone does not change it.
     */
    public String imageName() throws IOException {
        Path release = javaHome.resolve("release");
        ContentHash hash = new ContentHash().add(FORMAT).add(javaHome.toString()).add(System.getProperty("java.vm.version", ""))
                .add(linked() ? "jlink " + MODULES + " " + JLINK_OPTIONS : "copy").add(dockerfile());
        if (Files.isRegularFile(release)) {
            hash.addTree(release);
        }
        return REPOSITORY + ":" + hash.hex(16);
    }

    /** Writes {@code Dockerfile} and {@code rootfs/} (runtime and libraries) into the empty folder {@code context}. */
    public void assemble(Path context) throws IOException {
        Path rootfs = context.resolve("rootfs");
        Path runtime = rootfs.resolve(JAVA_HOME_IN_IMAGE.substring(1));
        Files.createDirectories(runtime.getParent());
        if (linked()) {
            jlink(runtime);
        } else {
            copyJavaHome(runtime);
        }
        List<Path> elfFiles = new ArrayList<>();
        elfFiles.add(runtime.resolve("bin/java"));
        try (Stream<Path> walk = Files.walk(runtime.resolve("lib"))) {
            walk.filter(p -> p.getFileName().toString().endsWith(".so") && Files.isRegularFile(p)).forEach(elfFiles::add);
        }
        for (Path library : SharedLibraries.of(elfFiles)) {
            if (library.normalize().startsWith(runtime)) {
                continue; // the runtime's own (libjli.so through $ORIGIN), already in place
            }
            Path target = rootfs.resolve(library.toString().substring(1));
            Files.createDirectories(target.getParent());
            Files.copy(library, target, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.createDirectories(rootfs.resolve("tmp"));
        Files.writeString(context.resolve("Dockerfile"), dockerfile(), StandardCharsets.UTF_8);
    }

    private void jlink(Path output) throws IOException {
        ToolProvider jlink = ToolProvider.findFirst("jlink").orElseThrow();
        List<String> args = new ArrayList<>(List.of("--module-path", javaHome.resolve("jmods").toString(),
                "--add-modules", String.join(",", availableModules()), "--output", output.toString()));
        args.addAll(JLINK_OPTIONS);
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(messages, true, StandardCharsets.UTF_8)) {
            int status = jlink.run(out, out, args.toArray(String[]::new));
            if (status != 0) {
                throw new IOException("jlink " + String.join(" ", args) + " failed (" + status + "): "
                        + messages.toString(StandardCharsets.UTF_8).trim());
            }
        }
    }

    /** {@link #MODULES} that this JDK has (jdk.crypto.ec, for one, is folded into java.base in later JDKs). */
    private List<String> availableModules() {
        return MODULES.stream().filter(m -> Files.exists(javaHome.resolve("jmods").resolve(m + ".jmod"))).toList();
    }

    private void copyJavaHome(Path output) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(javaHome, FileVisitOption.FOLLOW_LINKS)) {
            files = walk.filter(p -> !p.equals(javaHome) && !NOT_COPIED.contains(javaHome.relativize(p).getName(0).toString()))
                    .toList();
        }
        for (Path source : files) {
            Path target = output.resolve(javaHome.relativize(source).toString());
            if (Files.isDirectory(source)) {
                Files.createDirectories(target);
            } else if (Files.exists(source)) {
                Files.createDirectories(target.getParent());
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
            }
            // a dangling link (e.g. cacerts without ca-certificates-java) is left out
        }
    }

    /** The JDK this image is made from. */
    public Path javaHome() {
        return javaHome;
    }

    @Override
    public String toString() {
        return "Java runtime image of " + javaHome + (linked() ? " (jlink " + String.join(",", MODULES) + ")" : " (copy)");
    }

}
