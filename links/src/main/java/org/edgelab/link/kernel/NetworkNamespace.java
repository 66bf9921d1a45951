package org.edgelab.link.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.jna.LastErrorException;

/**
 * A named network namespace ({@code ip netns add NAME}, so {@code ip netns exec} and {@code ip -n} reach it) that
 * EdgeLab created: join a thread to it, write its sysctls, delete it. Thread-safe; every call blocks for the
 * command or system call it makes.
 */
final class NetworkNamespace {
    /** Where iproute2 keeps the names. */
    static final Path NAMES = Path.of("/var/run/netns");
    private static final Pattern NS_LINK = Pattern.compile("net:\\[(\\d+)]");

    private final String name;
    private final long inode;

    private NetworkNamespace(String name, long inode) {
        this.name = name;
        this.inode = inode;
    }

    /** Creates namespace {@code name} ({@code ip netns add}). */
    static NetworkNamespace create(String name) {
        Commands.run(Commands.ip("netns", "add", name));
        try {
            return new NetworkNamespace(name, ((Number) Files.getAttribute(NAMES.resolve(name), "unix:ino")).longValue());
        } catch (IOException | RuntimeException e) {
            delete(name);
            throw new KernelLinkException("namespace " + name + " was added but cannot be read at " + NAMES.resolve(name), e);
        }
    }

    /** Deletes namespace {@code name} if it exists; true if it was there. Devices with an end in it go with it. */
    static boolean delete(String name) {
        if (!Files.exists(NAMES.resolve(name))) {
            return false;
        }
        Commands.Result r = Commands.attempt(Commands.ip("netns", "del", name));
        if (r.exit() != 0 && Files.exists(NAMES.resolve(name))) {
            throw new KernelLinkException("'ip netns del " + name + "' failed: " + r.output().strip());
        }
        return true;
    }

    /** True while namespace {@code name} exists. */
    static boolean exists(String name) {
        return Files.exists(NAMES.resolve(name));
    }

    /** The names of every namespace iproute2 knows. */
    static List<String> list() {
        List<String> names = new ArrayList<>();
        try (var entries = Files.list(NAMES)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        } catch (IOException e) {
            // no namespace was ever added on this machine: the folder does not exist
        }
        return names;
    }

    String name() {
        return name;
    }

    long inode() {
        return inode;
    }

    /** Moves the calling thread into this namespace; threads and processes it starts afterwards are in it too. */
    void joinCurrentThread() {
        int fd;
        try {
            fd = LibC.open(NAMES.resolve(name).toString(), LibC.O_RDONLY | LibC.O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new KernelLinkException("cannot open namespace " + name + ": " + LibC.describe(e), e);
        }
        try {
            LibC.setns(fd, LibC.CLONE_NEWNET);
        } catch (LastErrorException e) {
            throw new KernelLinkException("setns into " + name + " failed: " + LibC.describe(e), e);
        } finally {
            LibC.close(fd);
        }
        if (currentThreadInode() != inode) {
            throw new KernelLinkException("a thread joined " + name + " but is not in it");
        }
    }

    /** The inode of the calling thread's network namespace. */
    static long currentThreadInode() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/thread-self/ns/net")).toString();
            Matcher m = NS_LINK.matcher(link);
            if (!m.matches()) {
                throw new KernelLinkException("unexpected /proc/thread-self/ns/net: " + link);
            }
            return Long.parseLong(m.group(1));
        } catch (IOException e) {
            throw new KernelLinkException("cannot read /proc/thread-self/ns/net", e);
        }
    }

    /**
     * Sets sysctl {@code key} (dots, under /proc/sys) to {@code value}; call it on a thread in this namespace
     * (/proc/sys/net shows the calling thread's namespace).
     */
    void sysctl(String key, String value) {
        if (currentThreadInode() != inode) {
            throw new IllegalStateException("sysctl " + key + " of " + name + " written from a thread outside it");
        }
        Path file = Path.of("/proc/sys", key.split("\\."));
        try {
            Files.writeString(file, value);
        } catch (IOException e) {
            throw new KernelLinkException("cannot set " + key + "=" + value + " in namespace " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
