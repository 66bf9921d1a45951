package org.edgelab.origin.server;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Maps request paths to regular files under one directory, never outside it: {@code ..} segments,
 * NUL bytes and backslashes are rejected (400), and paths whose real location (after symbolic
 * links) is outside the root are not found (404). Immutable and thread-safe.
 */
final class FilesRoot {

    private final Path root;

    FilesRoot(Path root) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("files root " + root + " is not readable: " + e.getMessage(), e);
        }
        if (!Files.isDirectory(this.root)) {
            throw new IllegalArgumentException("files root " + root + " is not a directory");
        }
    }

    /** The outcome of resolving a path: a file, or an error status with a message. */
    record Resolution(FileRepresentation file, HttpResponseStatus error, String message) {
    }

    /** Resolves the path of a request URI (the query is ignored; percent-escapes are decoded). */
    Resolution resolve(String uri) {
        String decoded;
        try {
            decoded = new QueryStringDecoder(uri).path();
        } catch (IllegalArgumentException e) {
            return new Resolution(null, HttpResponseStatus.BAD_REQUEST, "bad percent-encoding in path");
        }
        if (!decoded.startsWith("/") || decoded.indexOf('\0') >= 0 || decoded.indexOf('\\') >= 0) {
            return new Resolution(null, HttpResponseStatus.BAD_REQUEST, "path must start with / and contain no NUL or backslash");
        }
        for (String segment : decoded.split("/")) {
            if (segment.equals("..")) {
                return new Resolution(null, HttpResponseStatus.BAD_REQUEST, "path must not contain '..'");
            }
        }
        String relative = decoded.substring(1);
        if (relative.isEmpty()) {
            return notFound();
        }
        Path candidate = root.resolve(relative).normalize();
        if (!candidate.startsWith(root)) {
            return notFound();
        }
        try {
            Path real = candidate.toRealPath();
            if (!real.startsWith(root)) {
                return notFound();
            }
            BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                return notFound();
            }
            return new Resolution(new FileRepresentation(real, attributes), null, null);
        } catch (NoSuchFileException e) {
            return notFound();
        } catch (IOException | SecurityException e) {
            return notFound();
        }
    }

    private static Resolution notFound() {
        return new Resolution(null, HttpResponseStatus.NOT_FOUND, "no such file");
    }
}
