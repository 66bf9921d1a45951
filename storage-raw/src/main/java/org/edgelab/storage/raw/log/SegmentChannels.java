package org.edgelab.storage.raw.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opens the channel of one segment file; tests substitute channels that fail on demand. Thread-safe. */
@FunctionalInterface
interface SegmentChannels {

    /** Plain read-write file channels, creating the file if missing. */
    SegmentChannels FILES = (disk, file) -> FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);

    /** Opens {@code file} on disk number {@code disk} for reading and writing. */
    FileChannel open(int disk, Path file) throws IOException;
}
