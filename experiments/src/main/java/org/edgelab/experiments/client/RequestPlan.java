package org.edgelab.experiments.client;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.edgelab.loadgen.workload.RequestGenerator;
import org.edgelab.loadgen.workload.RequestSlot;
import org.edgelab.loadgen.workload.Workload;

/**
 * A workload's requests written out for a client that cannot run Java (wrk's Lua script): the first
 * {@code requests} tickets of one generator, cut into one file per client thread ({@code <prefix>.<t>},
 * thread t getting the t-th of equal consecutive blocks, so each gets the workload's mix: first-time
 * requests are spread evenly over the tickets). One line per request: {@code path first last fresh}
 * ({@code first} and {@code last} the inclusive byte range, -1 for a full fetch; {@code fresh} 1 for a
 * request the workload means for a never-seen object). When every request is the same full fetch no file
 * is written and {@link #singlePath()} names it. Immutable.
 *
 * @param prefix     the files' common prefix, or null when every request is {@link #singlePath()}
 * @param files      the files, one per thread (empty for a single path)
 * @param singlePath the one path every request fetches in full, or null
 */
record RequestPlan(Path prefix, List<Path> files, String singlePath) {

    RequestPlan {
        files = List.copyOf(files);
    }

    /** Writes the plan of {@code workload} (seeded with {@code seed}) for {@code threads} threads, or nothing for a single full fetch. */
    static RequestPlan write(Workload workload, long seed, int requests, int threads, Path prefix) throws IOException {
        int n = (int) Math.max(threads, Math.min(requests, workload.size()));  // a finite workload (a trace) repeats
        RequestGenerator generator = workload.newGenerator(seed);
        RequestSlot slot = new RequestSlot();
        String[] lines = new String[n];
        boolean single = true;
        for (int ticket = 0; ticket < n; ticket++) {
            generator.next(ticket, slot);
            if (slot.path.indexOf(' ') >= 0 || slot.path.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("request path '" + slot.path + "' has a space or line break; wrk's plan cannot hold it");
            }
            lines[ticket] = slot.path + " " + slot.rangeStart + " " + (slot.rangeStart < 0 ? -1 : slot.rangeEnd) + " "
                    + (slot.firstTime ? 1 : 0);
            single &= slot.rangeStart < 0 && !slot.firstTime && lines[ticket].equals(lines[0]);
        }
        if (single) {
            return new RequestPlan(null, List.of(), lines[0].substring(0, lines[0].indexOf(' ')));
        }
        Files.createDirectories(prefix.toAbsolutePath().getParent());
        List<Path> files = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Path file = Path.of(prefix + "." + t);
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
                for (int k = (int) ((long) t * n / threads); k < (int) ((long) (t + 1) * n / threads); k++) {
                    out.write(lines[k]);
                    out.write('\n');
                }
            }
            files.add(file);
        }
        return new RequestPlan(prefix, files, null);
    }
}
