package org.edgelab.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.edgelab.measure.CpuClock;
import org.edgelab.measure.ProcessIo;
import org.edgelab.storage.raw.io.FileAdvice;
import org.edgelab.storage.raw.io.PageIn;
import org.edgelab.units.ByteSize;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Measures what bringing file ranges into the page cache costs, the way the raw engines do before they lend a slice
 * ({@link PageIn}), by each {@link PageIn.Method} side by side: threads bring random {@code --piece}-aligned ranges
 * of an existing file in until {@code --total} bytes were asked for, from a cold start (the file's pages dropped),
 * and the JVM's CPU time per GB, the rate and the device bytes read per byte asked are printed per round, the
 * methods alternating, then their medians and ratios. With {@code --object}, ranges are objects brought in piece by
 * piece in order, as a cache sends a hit; {@code --second-pass} sends each piece to {@code /dev/null} again once it
 * is in, as the event loop then sends it to the client. {@link PageIn.Method#SENDFILE_READ_AHEAD} reads each object
 * through an open file of its own with the kernel's read-ahead, as raw-files reads an object file; the other
 * methods share one open file advised {@code POSIX_FADV_RANDOM}, as raw-log reads a segment. Run it in a memory
 * cgroup smaller than the file to see the cost of reclaim as a storage-bound cache pays it (the command is in
 * docs/BENCHMARKS.md). Reads the file only.
 */
@Command(name = "page-in", mixinStandardHelpOptions = true,
        description = "CPU per GB of bringing random file ranges into the page cache, per PageIn method, side by side.")
public final class PageInCost implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--file", required = true, description = "an existing file on the device under test, larger than memory")
    Path file;

    @Option(names = "--total", defaultValue = "8GiB", description = "bytes to bring in per method and round (default ${DEFAULT-VALUE})")
    String total;

    @Option(names = "--piece", defaultValue = "1MiB", description = "bytes per range, as the engines lend slices (default ${DEFAULT-VALUE})")
    String piece;

    @Option(names = "--threads", defaultValue = "8", description = "threads bringing ranges in, as a read lane's busy threads (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--object", defaultValue = "0", description = "bytes per object, brought in piece by piece in order (0: each piece at random; default ${DEFAULT-VALUE})")
    String object;

    @Option(names = "--second-pass", description = "send every piece to /dev/null again once it is in, as a cache's event loop sends it to its client")
    boolean secondPass;

    @Option(names = "--rounds", defaultValue = "3", description = "rounds; each runs every method once (default ${DEFAULT-VALUE})")
    int rounds;

    /** One method's figures in one round. */
    record Round(PageIn.Method method, double seconds, double cpuSeconds, long asked, long deviceBytes) {
        double cpuPerGb() {
            return cpuSeconds / (asked / 1e9);
        }

        double megabytesPerSecond() {
            return asked / 1e6 / seconds;
        }

        double deviceReadPerAsked() {
            return deviceBytes < 0 ? Double.NaN : (double) deviceBytes / asked;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PageInCost()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long totalBytes = ByteSize.parse(total);
        long pieceBytes = ByteSize.parse(piece);
        long objectBytes = ByteSize.parse(object);
        long unit = objectBytes > 0 ? objectBytes : pieceBytes;
        long pieces = Files.size(file) / unit;
        if (pieces < 2) {
            throw new CommandLine.ParameterException(spec.commandLine(), file + " holds fewer than two pieces of " + piece);
        }
        System.out.println("page-in: " + file + ", " + total + " per method and round in pieces of " + piece
                + (objectBytes > 0 ? " of objects of " + object + " read in order" : " at random")
                + (secondPass ? ", each piece sent again once in" : "") + ", " + threads + " threads; "
                + PageIn.status());
        Map<PageIn.Method, List<Round>> byMethod = new EnumMap<>(PageIn.Method.class);
        for (int r = 0; r < rounds; r++) {
            for (PageIn.Method method : PageIn.Method.values()) {
                Round round = run(method, totalBytes, pieceBytes, unit, pieces, 31L * r + 7);
                byMethod.computeIfAbsent(method, m -> new ArrayList<>()).add(round);
                System.out.printf(Locale.ROOT, "round %d %-17s %7.0f MB/s  %.3f CPU s/GB  device read / asked %.2f%n",
                        r + 1, method, round.megabytesPerSecond(), round.cpuPerGb(), round.deviceReadPerAsked());
            }
        }
        double base = Double.NaN;
        for (Map.Entry<PageIn.Method, List<Round>> e : byMethod.entrySet()) {
            double cpu = median(e.getValue().stream().mapToDouble(Round::cpuPerGb).toArray());
            double rate = median(e.getValue().stream().mapToDouble(Round::megabytesPerSecond).toArray());
            if (Double.isNaN(base)) {
                base = cpu;
            }
            // the process CPU clock ticks in jiffies: a short run can measure none for a method
            String ratio = base > 0 ? String.format(Locale.ROOT, "%.2fx the first method's CPU", cpu / base)
                    : "the first method's CPU below the clock's resolution: give a larger --total";
            System.out.printf(Locale.ROOT, "median %-17s %7.0f MB/s  %.3f CPU s/GB  (%s)%n", e.getKey(), rate, cpu, ratio);
        }
        return 0;
    }

    private Round run(PageIn.Method method, long totalBytes, long pieceBytes, long unit, long pieces, long seed) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             FileChannel devNull = FileChannel.open(Path.of("/dev/null"), StandardOpenOption.WRITE)) {
            FileAdvice.advise(ch, FileAdvice.RANDOM); // as the engines read: no read-ahead of their own
            FileAdvice.advise(ch, FileAdvice.DONTNEED);
            AtomicLong asked = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            long device0 = deviceReadBytes();
            long cpu0 = CpuClock.processCpuNanos();
            long t0 = System.nanoTime();
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    SplittableRandom random = new SplittableRandom(seed * 1_000_003L + t);
                    done.add(pool.submit(() -> {
                        while (asked.addAndGet(unit) <= totalBytes) {
                            bringIn(method, ch, devNull, random.nextLong(pieces) * unit, unit, pieceBytes);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = (CpuClock.processCpuNanos() - cpu0) / 1e9;
            long device1 = deviceReadBytes();
            return new Round(method, seconds, cpu, totalBytes, device0 < 0 || device1 < 0 ? -1 : device1 - device0);
        }
    }

    /**
     * Brings {@code [start, start + length)} in piece by piece, in order, and sends each piece again with
     * {@code --second-pass}. {@link PageIn.Method#SENDFILE_READ_AHEAD} reads through an open file of its own (its
     * read-ahead follows this range only, as raw-files' reader of one object file); the others through {@code shared}.
     */
    private void bringIn(PageIn.Method method, FileChannel shared, FileChannel devNull, long start, long length,
                         long pieceBytes) throws IOException {
        boolean own = method == PageIn.Method.SENDFILE_READ_AHEAD;
        try (FileChannel ownChannel = own ? FileChannel.open(file, StandardOpenOption.READ) : null) {
            FileChannel ch = own ? ownChannel : shared;
            for (long at = 0; at < length; at += pieceBytes) {
                long n = Math.min(pieceBytes, length - at);
                PageIn.resident(ch, start + at, n, method);
                for (long sent = 0; secondPass && sent < n; ) {
                    sent += ch.transferTo(start + at + sent, n - sent, devNull);
                }
            }
        }
    }

    /** Bytes this process caused to be read from storage ({@code /proc/self/io} read_bytes), or -1. */
    private static long deviceReadBytes() {
        try {
            return ProcessIo.read(List.of(ProcessHandle.current().pid())).readBytes();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
