package org.edgelab.analysis;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Reads HdrHistogram interval logs ({@code .hlog}, as written by the load generator) into one histogram per file by
 * adding every interval; merged histograms are the only source of latency percentiles in the analysis.
 *
 * <p>Thread-safety: stateless.
 */
public final class LatencyHistograms {
    private LatencyHistograms() {
    }

    /**
     * Adds every interval histogram of {@code hlog} into one auto-resizing histogram.
     *
     * @throws ResultFormatException when the file is missing or is not an interval log
     */
    public static Histogram read(Path hlog) {
        Histogram total = new Histogram(3);
        intervals(hlog).forEach(total::add);
        return total;
    }

    /**
     * The interval histograms of {@code hlog} in file order, each with its start and end time stamps (epoch
     * milliseconds), for figures over time within a run.
     *
     * @throws ResultFormatException when the file is missing or is not an interval log
     */
    public static List<Histogram> intervals(Path hlog) {
        if (!Files.isRegularFile(hlog)) {
            throw new ResultFormatException("histogram log " + hlog + " does not exist");
        }
        List<Histogram> intervals = new ArrayList<>();
        try {
            try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
                EncodableHistogram interval;
                while ((interval = reader.nextIntervalHistogram()) != null) {
                    if (!(interval instanceof Histogram histogram)) {
                        throw new ResultFormatException(hlog + " holds " + interval.getClass().getSimpleName()
                                + " intervals; expected integer Histogram intervals");
                    }
                    intervals.add(histogram);
                }
            }
        } catch (FileNotFoundException e) {
            throw new ResultFormatException("histogram log " + hlog + " does not exist", e);
        } catch (RuntimeException e) {
            if (e instanceof ResultFormatException rfe) {
                throw rfe;
            }
            throw new ResultFormatException(hlog + " is not a readable HdrHistogram interval log: " + e, e);
        }
        return intervals;
    }

    /** Merges the given logs (e.g. the repetitions of one cell) into one histogram. */
    public static Histogram merge(Iterable<Path> hlogs) {
        Histogram merged = new Histogram(3);
        for (Path hlog : hlogs) {
            merged.add(read(hlog));
        }
        return merged;
    }
}
