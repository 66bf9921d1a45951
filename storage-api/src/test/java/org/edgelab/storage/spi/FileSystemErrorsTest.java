package org.edgelab.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.edgelab.storage.contract.ScratchMount;
import org.junit.jupiter.api.Test;

/**
 * A full file system (ENOSPC) against a failing one (EIO) on a real, nearly full tmpfs: how little room is left must
 * not make an I/O error a "full" refusal, or a store keeps a dying disk in service. Needs root for the mount.
 */
class FileSystemErrorsTest {

    @Test
    void anIoErrorOnANearlyFullFileSystemIsNotAFullOne() throws Exception {
        try (ScratchMount mount = ScratchMount.tmpfs(4L << 20)) {
            Path filler = mount.dir().resolve("filler");
            IOException enospc = fill(filler);
            assertThat(mount.usableBytes()).as("room left on %s", mount).isLessThan(FileSystemErrors.NEARLY_FULL_BYTES);
            assertThat(FileSystemErrors.SystemMessages.ENGLISH).as("this JVM's I/O errors are in English").isTrue();

            assertThat(FileSystemErrors.isNoSpace(enospc, mount.dir())).as("the kernel's own ENOSPC: %s", enospc).isTrue();
            assertThat(FileSystemErrors.isNoSpace(new IOException("Input/output error"), mount.dir()))
                    .as("EIO on a nearly full file system is a failing disk").isFalse();
            assertThat(FileSystemErrors.isNoSpace(new IOException("Read-only file system"), mount.dir())).isFalse();
            assertThat(FileSystemErrors.nearlyFull(mount.dir())).isTrue();
        }
    }

    @Test
    void noSpaceAndQuotaMessagesAreFullWhereverTheyAreFromAndOtherErrorsAreNot() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        assertThat(FileSystemErrors.isNoSpace(new IOException("No space left on device"), tmp)).isTrue();
        assertThat(FileSystemErrors.isNoSpace(new IOException("wrapped", new IOException("Disk quota exceeded")), tmp)).isTrue();
        assertThat(FileSystemErrors.isNoSpace(new IOException("Input/output error"), tmp)).isFalse();
        assertThat(FileSystemErrors.isNoSpace(new IOException((String) null), tmp)).isFalse();
    }

    /** Writes into {@code file} until the kernel refuses; returns the refusal. */
    private static IOException fill(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            while (true) {
                try {
                    ch.write(chunk.clear());
                } catch (IOException e) {
                    return e;
                }
            }
        }
    }
}
