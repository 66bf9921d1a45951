package org.edgelab.storage.disk;

/** A child JVM for {@link ScratchFileSystemsTest}: mounts an ext4 scratch file system, prints its mount point, waits to be signalled. */
public final class ScratchFileSystemHolder {

    /** Printed before the mount point once it is mounted. */
    static final String READY = "mounted ";

    private ScratchFileSystemHolder() {
    }

    public static void main(String[] args) throws Exception {
        ScratchFileSystem fs = ScratchFileSystems.loopExt4(32L << 20);
        System.out.println(READY + fs.dir());
        System.out.flush();
        Thread.sleep(60_000);
    }
}
