package org.edgelab.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the server image adds to the Java runtime image: each class path entry of the runner (jar or
 * class directory) copied to {@value #CLASS_PATH_ROOT}{@code /NN-name} in class path order, the class
 * path that lists them inside the image, the Dockerfile and a content hash of it all that names the
 * image. Immutable and thread-safe.
 */
public final class ServerImageContext {

    /** Where the class path entries go in the image. */
    public static final String CLASS_PATH_ROOT = "/opt/edgelab/cp";
    /** The image's repository name; the tag is the content hash. */
    public static final String REPOSITORY = "edgelab-server";

    /** One class path entry: its name under {@link #CLASS_PATH_ROOT} and where it is on the host. */
    public record Entry(String name, Path source) {
        /** The entry's path inside the image. */
        public String pathInImage() {
            return CLASS_PATH_ROOT + "/" + name;
        }
    }

    private final String baseImage;
    private final List<Entry> entries;

    private ServerImageContext(String baseImage, List<Entry> entries) {
        this.baseImage = baseImage;
        this.entries = List.copyOf(entries);
    }

    /** The context for {@code classPath} on top of {@code baseImage} (the Java runtime image). */
    public static ServerImageContext of(String baseImage, List<Path> classPath) {
        if (classPath.isEmpty()) {
            throw new IllegalArgumentException("the runner's class path is empty: nothing to put in the server image");
        }
        List<Entry> entries = new ArrayList<>();
        int width = String.valueOf(classPath.size() - 1).length();
        for (int i = 0; i < classPath.size(); i++) {
            Path source = classPath.get(i);
            if (!Files.exists(source)) {
                throw new IllegalArgumentException("class path entry " + source + " does not exist");
            }
            String index = String.format("%0" + Math.max(2, width) + "d", i);
            entries.add(new Entry(index + "-" + source.getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_"), source));
        }
        return new ServerImageContext(baseImage, entries);
    }

    /** The entries, in class path order. */
    public List<Entry> entries() {
        return entries;
    }

    /** The class path inside the image. */
    public String classPathInImage() {
        return entries.stream().map(Entry::pathInImage).collect(Collectors.joining(":"));
    }

    /** The Dockerfile; the build context holds each entry at {@code cp/<name>}. */
    public String dockerfile() {
        return "FROM " + baseImage + "\n"
                + "COPY cp/ " + CLASS_PATH_ROOT + "/\n"
                + "LABEL org.edgelab.image=server\n";
    }

    /** The image name, {@code edgelab-server:<hash>}, the hash covering the base image, names and contents. */
    public String imageName() throws IOException {
        ContentHash hash = new ContentHash().add(dockerfile());
        for (Entry entry : entries) {
            hash.add(entry.name()).addTree(entry.source());
        }
        return REPOSITORY + ":" + hash.hex(16);
    }
}
