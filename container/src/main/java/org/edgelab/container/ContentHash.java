package org.edgelab.container;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * A SHA-256 over strings, files and directory trees (relative names and contents, in sorted order),
 * used to name images by what they hold so that an unchanged runtime or class path is never rebuilt.
 * Not thread-safe: one instance per computation.
 */
final class ContentHash {

    private final MessageDigest digest;
    private final byte[] buffer = new byte[64 * 1024];

    ContentHash() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /** Adds a string, length-prefixed so that concatenations cannot collide. */
    ContentHash add(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        addLength(bytes.length);
        digest.update(bytes);
        return this;
    }

    /** Adds a file's content, or a directory's files (relative path and content each, sorted by path). */
    ContentHash addTree(Path source) throws IOException {
        if (Files.isDirectory(source)) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(source)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            add("dir:" + files.size());
            for (Path file : files) {
                add(source.relativize(file).toString().replace('\\', '/'));
                addFile(file);
            }
        } else {
            add("file");
            addFile(source);
        }
        return this;
    }

    private void addFile(Path file) throws IOException {
        addLength(Files.size(file));
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
    }

    private void addLength(long length) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            digest.update((byte) (length >>> shift));
        }
    }

    /** The first {@code hexDigits} hex digits of the hash (the digest is finished: do not add more). */
    String hex(int hexDigits) {
        return HexFormat.of().formatHex(digest.digest()).substring(0, hexDigits);
    }
}
