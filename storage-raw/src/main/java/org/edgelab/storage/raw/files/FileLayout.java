package org.edgelab.storage.raw.files;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.edgelab.storage.api.CacheKey;

/**
 * Where each object's file lives: its name is the first 128 bits of the SHA-256 of the key in hex,
 * under directories named by the name's last characters, as nginx's {@code levels=1:2} lays them
 * out ({@code c/29/b7f5...029c}). Immutable and thread-safe.
 */
final class FileLayout {

    static final String TEMP_SUFFIX = ".tmp";
    private static final Pattern OBJECT_NAME = Pattern.compile("[0-9a-f]{32}");
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    });

    private final Path root;
    private final int[] levels;

    FileLayout(Path root, int[] levels) {
        this.root = root;
        this.levels = levels.clone();
    }

    /** Parses nginx-style levels: one to three numbers 1 or 2 separated by colons ({@code 1:2}). */
    static int[] parseLevels(String spec) {
        String[] parts = spec.trim().split(":");
        if (parts.length < 1 || parts.length > 3) {
            throw new IllegalArgumentException(levelsError(spec));
        }
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (!parts[i].equals("1") && !parts[i].equals("2")) {
                throw new IllegalArgumentException(levelsError(spec));
            }
            out[i] = Integer.parseInt(parts[i]);
        }
        return out;
    }

    private static String levelsError(String spec) {
        return "engine setting 'levels' must be one to three directory levels of 1 or 2 hex characters, "
                + "like nginx's levels=1:2; got '" + spec + "'";
    }

    /** Returns the levels in their setting form, {@code 1:2}. */
    String levelsSpec() {
        StringBuilder sb = new StringBuilder();
        for (int l : levels) {
            sb.append(sb.length() == 0 ? "" : ":").append(l);
        }
        return sb.toString();
    }

    Path root() {
        return root;
    }

    int depth() {
        return levels.length;
    }

    /** Returns the file name of the key's object. */
    static String fileName(CacheKey key) {
        MessageDigest md = SHA256.get();
        byte[] digest = md.digest(key.toBytes());
        return HexFormat.of().formatHex(Arrays.copyOf(digest, 16));
    }

    /** Returns whether a file name is an object file name. */
    static boolean isObjectName(String name) {
        return OBJECT_NAME.matcher(name).matches();
    }

    /** Returns the directory that holds files of the given name. */
    Path directoryOf(String name) {
        Path dir = root;
        int end = name.length();
        for (int l : levels) {
            dir = dir.resolve(name.substring(end - l, end));
            end -= l;
        }
        return dir;
    }

    /** Returns the path of the key's object file. */
    Path pathOf(CacheKey key) {
        String name = fileName(key);
        return directoryOf(name).resolve(name);
    }

    /** Returns a fresh temporary path beside {@code finalPath}, unique by {@code nonce}. */
    static Path tempPathFor(Path finalPath, long nonce) {
        return finalPath.resolveSibling(finalPath.getFileName() + "." + Long.toHexString(nonce) + TEMP_SUFFIX);
    }
}
