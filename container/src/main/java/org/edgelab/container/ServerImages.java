package org.edgelab.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Image;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Builds, once per content, the two local images the container target runs: the Java runtime image
 * ({@link JavaRuntimeImage}, rebuilt only when the JDK changes) and the server image on top of it
 * ({@link ServerImageContext}: the runner's class path, rebuilt only when a jar or class changes). An
 * image whose content-hash tag already exists in Docker is reused, also across JVMs; within a JVM the
 * answer is remembered. Images are kept (never deleted on exit) so that later runs start at once.
 * Thread-safe: builds are serialised.
 */
public final class ServerImages {

    private static final System.Logger LOG = System.getLogger(ServerImages.class.getName());
    private static final int KEPT_SERVER_IMAGES = 4;
    private static ServerImage built;

    /** A built server image: its name and the class path inside it. */
    public record ServerImage(String name, String classPath) {
    }

    private ServerImages() {
    }

    /** The server image for this JVM's runtime and class path, built if Docker does not have it. */
    public static synchronized ServerImage serverImage() throws IOException {
        if (built != null && exists(built.name())) {
            return built;
        }
        ServerImageContext context = ServerImageContext.of(runtimeImage(JavaRuntimeImage.current()), RunnerClassPath.current());
        String name = context.imageName();
        if (!exists(name)) {
            long start = System.nanoTime();
            ImageFromDockerfile image = new ImageFromDockerfile(name, false).withFileFromString("Dockerfile", context.dockerfile());
            for (ServerImageContext.Entry entry : context.entries()) {
                image.withFileFromPath("cp/" + entry.name(), entry.source());
            }
            build(image, name);
            LOG.log(System.Logger.Level.INFO, "built " + name + " (" + context.entries().size() + " class path entries) in "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
            pruneOldServerImages(name);
        }
        built = new ServerImage(name, context.classPathInImage());
        return built;
    }

    /** The Java runtime image, built if Docker does not have it. */
    static String runtimeImage(JavaRuntimeImage runtime) throws IOException {
        String name = runtime.imageName();
        if (exists(name)) {
            return name;
        }
        long start = System.nanoTime();
        Path context = Files.createTempDirectory("edgelab-java-image");
        try {
            runtime.assemble(context);
            build(new ImageFromDockerfile(name, false).withFileFromPath("Dockerfile", context.resolve("Dockerfile"))
                    .withFileFromPath("rootfs", context.resolve("rootfs")), name);
        } finally {
            deleteRecursively(context);
        }
        LOG.log(System.Logger.Level.INFO, "built " + name + " from " + runtime + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        return name;
    }

    private static void build(ImageFromDockerfile image, String name) throws IOException {
        try {
            image.get();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IOException("building image " + name + " failed: " + cause.getMessage(), e);
        }
    }

    /**
     * Removes all but the newest four server images (each class path change makes one;
     * they differ in the jars layer only). One still in use by a container is left alone.
     */
    private static void pruneOldServerImages(String keep) {
        DockerClient client = DockerClientFactory.instance().client();
        List<Image> images = new ArrayList<>(client.listImagesCmd().withLabelFilter(Map.of("org.edgelab.image", "server")).exec());
        images.sort(Comparator.comparing(Image::getCreated, Comparator.nullsFirst(Comparator.naturalOrder())).reversed());
        for (Image old : images.subList(Math.min(KEPT_SERVER_IMAGES, images.size()), images.size())) {
            if (old.getRepoTags() != null && List.of(old.getRepoTags()).contains(keep)) {
                continue;
            }
            try {
                client.removeImageCmd(old.getId()).withForce(false).exec();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "kept image " + old.getId() + ": " + e.getMessage());
            }
        }
    }

    /** Whether Docker has an image of this name. */
    static boolean exists(String name) {
        DockerClient client = DockerClientFactory.instance().client();
        try {
            client.inspectImageCmd(name).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete the image build folder " + dir + ": " + e.getMessage());
        }
    }
}
