package org.edgelab.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.edgelab.analysis.cli.ReportCommand;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import picocli.CommandLine;

/**
 * Opens the HTML report of the fixture results in headless Chromium (Debian's chromium and chromium-driver, driven by
 * Selenium, never downloading a driver or browser): it must load from file:// with no console error, request nothing
 * that is not a file, and draw every plot with the fixture's number of series and points; the headline, percentile,
 * bar and over-time plots must hold the figures computed here from the fixture's results.csv and .hlog files; a
 * screenshot of the first screen is saved as {@code target/report-first-screen.png}.
 *
 * <p>Skips when /usr/bin/chromium or /usr/bin/chromedriver is missing, unless {@code EDGELAB_REQUIRE_BROWSER=1}.
 */
class HtmlReportBrowserTest {
    private static final Path CHROMIUM = Path.of(System.getProperty("edgelab.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("edgelab.chromedriver", "/usr/bin/chromedriver"));
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Held so the setting sticks: the plain chromedriver needs no DevTools binding, so its "no CDP match" warning is noise. */
    private static final java.util.logging.Logger CDP_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium.devtools");

    @TempDir
    static Path profile;

    private static ChromeDriverService service;
    private static ChromeDriver browser;
    /** Why the browser could not be started (each test is then skipped with this reason), or null. */
    private static String missing;

    @TempDir
    Path out;

    @BeforeAll
    static void startBrowser() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present) {
            String why = "headless Chromium test needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian packages chromium and chromium-driver)";
            if ("1".equals(System.getenv("EDGELAB_REQUIRE_BROWSER"))) {
                fail(why + ", and EDGELAB_REQUIRE_BROWSER=1");
            }
            missing = why + "; skipped (set EDGELAB_REQUIRE_BROWSER=1 to fail instead)";
            return;
        }
        CDP_LOG.setLevel(Level.SEVERE);
        // An explicit driver executable makes Selenium skip Selenium Manager: nothing is looked up or downloaded.
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogOutput(java.io.OutputStream.nullOutputStream())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + Files.createDirectories(profile.resolve("chromium")));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        browser.manage().window().setSize(new Dimension(1400, 1000));
    }

    @BeforeEach
    void needsTheBrowser() {
        Assumptions.assumeTrue(missing == null, () -> missing);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    @Test
    void theFixtureReportRendersOfflineWithEveryPlotDrawn() throws Exception {
        Path fixtures = Path.of(getClass().getResource("/fixtures/results").toURI());
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new ReportCommand()).setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
                .execute(fixtures.toString(), "--out", out.toString());
        assertThat(exit).as(err.toString()).isZero();

        Page page = open(out.resolve("report.html"));

        assertThat(page.severe()).as("SEVERE console entries").isEmpty();
        assertThat(page.requests()).as("requests made by the page").isNotEmpty().allMatch(url -> url.startsWith("file:"));
        assertThat(browser.getTitle()).isEqualTo("EdgeLab report");
        // Known from the fixtures (see fixtures/README.md): plot id -> {series, points}.
        Map<String, int[]> expected = new java.util.LinkedHashMap<>();
        // varnish-edge: 2 builds x 2 connection counts = 4 lines per size; 900 samples per line (2 repetitions of 450)
        // reach 99.8 %: 10 + 9 + 8 percentile steps. booster-http: 2 servers x 2 range sizes x 2 connection counts = 8
        // lines; 400 samples reach 99.7 %: 10 + 9 + 7 steps.
        for (String size : List.of("100-kb", "1-mb", "50-mb")) {
            expected.put("varnish-edge-" + size + "-ttfb-percentiles", new int[] {4, 4 * 27});
            expected.put("varnish-edge-" + size + "-ttlb-percentiles", new int[] {4, 4 * 27});
            expected.put("varnish-edge-" + size + "-req-per-s-bars", new int[] {2, 4});       // 2 builds x 2 connection counts
            expected.put("varnish-edge-" + size + "-gbps-bars", new int[] {2, 4});
            expected.put("varnish-edge-" + size + "-req-per-s-over-time", new int[] {8, 24}); // 4 cells x 2 reps, 3 intervals
            expected.put("varnish-edge-" + size + "-ttfb-p99-over-time", new int[] {8, 24});
        }
        expected.put("booster-http-8-mib-ttfb-percentiles", new int[] {8, 8 * 26});
        expected.put("booster-http-8-mib-ttlb-percentiles", new int[] {8, 8 * 26});
        expected.put("booster-http-8-mib-req-per-s-bars", new int[] {2, 8});      // 2 servers x 4 settings
        expected.put("booster-http-8-mib-gbps-bars", new int[] {2, 8});
        expected.put("booster-http-8-mib-req-per-s-over-time", new int[] {16, 32}); // 8 cells x 2 reps, 2 intervals
        expected.put("booster-http-8-mib-ttfb-p99-over-time", new int[] {16, 32});
        expected.put("varnish-edge-ttlb-p99-by-size", new int[] {4, 12});           // 2 engines x 2 concurrencies, 3 sizes
        expected.put("varnish-edge-ttlb-p99-by-concurrency", new int[] {6, 12});    // 2 engines x 3 sizes, 2 concurrencies
        expected.put("varnish-edge-throughput-by-concurrency", new int[] {6, 12});
        expected.put("varnish-edge-hit-ratio-by-size", new int[] {4, 12});
        expected.put("varnish-edge-requests-per-watt-by-size", new int[] {4, 12});
        expected.put("varnish-edge-gbps-per-watt-by-size", new int[] {4, 12});
        expected.put("booster-http-ttlb-p99-by-concurrency", new int[] {4, 8});     // 2 servers x 2 range sizes, 2 concurrencies
        expected.put("booster-http-throughput-by-concurrency", new int[] {4, 8});
        expected.put("video-streams-streams-sustained", new int[] {2, 2});          // 2 server builds
        List<WebElement> figures = browser.findElements(By.cssSelector("figure.plot-figure"));
        assertThat(figures).extracting(f -> f.getAttribute("id")).containsExactlyInAnyOrderElementsOf(expected.keySet());
        for (WebElement figure : figures) {
            String id = figure.getAttribute("id");
            WebElement svg = figure.findElement(By.tagName("svg"));
            assertThat(svg.isDisplayed()).as(id + " displayed").isTrue();
            assertThat(svg.getSize().getWidth()).as(id + " width").isPositive();
            assertThat(svg.getSize().getHeight()).as(id + " height").isPositive();
            int[] counts = expected.get(id);
            if (id.endsWith("streams-sustained")) {
                assertThat(drawn(svg, "rect.bar")).as(id + " bars").isEqualTo(counts[1]);
                assertThat(drawn(svg, "line.whisker")).as(id + " whiskers").isEqualTo(counts[0]);
            } else if (id.endsWith("-bars")) {
                assertThat(drawn(svg, "rect.bar")).as(id + " bars").isEqualTo(counts[1]);
                // a whisker over repetitions that agree has no length: count them in the DOM
                assertThat(svg.findElements(By.cssSelector("line.whisker"))).as(id + " whiskers").hasSize(counts[1]);
                assertThat(distinct(svg, "rect.bar", "data-series")).as(id + " series").hasSize(counts[0]);
            } else {
                assertThat(svg.findElements(By.cssSelector("polyline.series"))).as(id + " series").hasSize(counts[0]);
                assertThat(drawn(svg, "circle.point")).as(id + " points").isEqualTo(counts[1]);
            }
        }
        Path run = fixtures.resolve("varnish-edge/20261130-040000");
        theHeadlineHoldsTheFixtureMedians(run);
        thePercentilePlotHoldsTheMergedHistograms(run);
        theBarsHoldTheMedianAndSpreadOfTheRepetitions(run);
        theOverTimePlotsHoldTheIntervalHistograms(run);
        firstScreen();
    }

    /** The headline cell of raw-log-1g at 100 KB, 10 connections: the median of its two repetitions, and lmdb's ratio to it. */
    private void theHeadlineHoldsTheFixtureMedians(Path run) throws IOException {
        WebElement table = browser.findElement(By.cssSelector("table.headline[data-experiment='varnish-edge'][data-object-size='100000']"));
        assertThat(table.getLocation().getY()).as("the headline is on the first screen").isLessThan(1000);
        List<WebElement> rows = table.findElements(By.cssSelector("tbody tr"));
        assertThat(rows).extracting(r -> r.findElement(By.tagName("td")).getText())
                .containsExactly("raw-log-1g", "raw-log-1g", "lmdb-1g", "lmdb-1g");
        double raw = median(column(run, "raw-log-1g-100000-c10", "req_per_s"));
        double lmdb = median(column(run, "lmdb-1g-100000-c10", "req_per_s"));
        WebElement rawCell = rows.get(0).findElement(By.cssSelector("td[data-figure='req_per_s']"));
        WebElement lmdbCell = rows.get(2).findElement(By.cssSelector("td[data-figure='req_per_s']"));
        assertThat(Double.parseDouble(rawCell.getAttribute("data-value"))).isCloseTo(raw, within(1e-9));
        assertThat(rawCell.getText()).isEqualTo(String.format(java.util.Locale.ROOT, "%,.0f", raw));
        assertThat(Double.parseDouble(lmdbCell.findElement(By.cssSelector(".ratio")).getAttribute("data-ratio")))
                .isCloseTo(lmdb / raw, within(1e-9));
        assertThat(rows.get(0).getAttribute("class")).isEqualTo("baseline");
        assertThat(table.findElement(By.tagName("caption")).getText()).isEqualTo("100 KB objects");
    }

    /** TTLB by percentile: each line's p99 is the p99 of both repetitions' logs merged (read here with HdrHistogram). */
    private void thePercentilePlotHoldsTheMergedHistograms(Path run) {
        WebElement svg = browser.findElement(By.cssSelector("#varnish-edge-100-kb-ttlb-percentiles svg"));
        for (String engine : List.of("raw-log", "lmdb")) {
            for (int connections : List.of(10, 100)) {
                String cell = engine + "-1g-100000-c" + connections;
                Histogram merged = new Histogram(3);
                for (int rep = 0; rep < 2; rep++) {
                    intervals(run.resolve("hlog/" + cell + "-r" + rep + ".hlog")).forEach(merged::add);
                }
                Map<Double, Double> points = points(svg, engine + "-1g · " + connections + " conn");
                assertThat(points).as(cell).hasSize(27);
                assertThat(points.get(99.0)).as(cell + " p99").isCloseTo(merged.getValueAtPercentile(99) / 1e6, within(1e-9));
                assertThat(points.get(50.0)).as(cell + " p50").isCloseTo(merged.getValueAtPercentile(50) / 1e6, within(1e-9));
            }
        }
    }

    /** req/s bars: the median of the two repetitions, the whisker from the fewer to the more. */
    private void theBarsHoldTheMedianAndSpreadOfTheRepetitions(Path run) throws IOException {
        WebElement svg = browser.findElement(By.cssSelector("#varnish-edge-1-mb-req-per-s-bars svg"));
        List<Double> reps = column(run, "lmdb-1g-1000000-c100", "req_per_s");
        WebElement bar = svg.findElement(By.cssSelector("rect.bar[data-series='lmdb-1g'][data-group='100 conn']"));
        WebElement whisker = svg.findElement(By.cssSelector("line.whisker[data-series='lmdb-1g'][data-group='100 conn']"));
        assertThat(Double.parseDouble(bar.getAttribute("data-value"))).isCloseTo(median(reps), within(1e-9));
        assertThat(Double.parseDouble(whisker.getAttribute("data-min"))).isEqualTo(java.util.Collections.min(reps));
        assertThat(Double.parseDouble(whisker.getAttribute("data-max"))).isEqualTo(java.util.Collections.max(reps));
    }

    /** Over time: each interval's req/s is its TTLB count over its length; its TTFB p99 that of the interval's TTFB log. */
    private void theOverTimePlotsHoldTheIntervalHistograms(Path run) {
        List<Histogram> ttlb = intervals(run.resolve("hlog/raw-log-1g-100000-c10-r1.hlog"));
        List<Histogram> ttfb = intervals(run.resolve("hlog/raw-log-1g-100000-c10-r1.ttfb.hlog"));
        Map<Double, Double> rate = points(browser.findElement(By.cssSelector("#varnish-edge-100-kb-req-per-s-over-time svg")),
                "raw-log-1g · 10 conn · rep 1");
        Map<Double, Double> p99 = points(browser.findElement(By.cssSelector("#varnish-edge-100-kb-ttfb-p99-over-time svg")),
                "raw-log-1g · 10 conn · rep 1");
        assertThat(rate).hasSize(ttlb.size());
        long start = ttlb.get(0).getStartTimeStamp();
        for (int i = 0; i < ttlb.size(); i++) {
            Histogram interval = ttlb.get(i);
            double seconds = (interval.getEndTimeStamp() - start) / 1000.0;
            double length = (interval.getEndTimeStamp() - interval.getStartTimeStamp()) / 1000.0;
            assertThat(rate.get(seconds)).as("req/s at " + seconds + " s").isCloseTo(interval.getTotalCount() / length, within(1e-9));
            assertThat(p99.get(seconds)).as("TTFB p99 at " + seconds + " s")
                    .isCloseTo(ttfb.get(i).getValueAtPercentile(99) / 1e6, within(1e-9));
        }
    }

    /** Saves the first screen (1400 x 1000) as target/report-first-screen.png, for a person to look at. */
    private void firstScreen() throws IOException {
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        Path shot = Path.of("target", "report-first-screen.png");
        Files.createDirectories(shot.getParent());
        Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
        assertThat(Files.size(shot)).isPositive();
    }

    @Test
    void theChecksCatchAPageThatReachesForTheNetwork() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Path page = out.resolve("leaky.html");
        Files.writeString(page, "<!DOCTYPE html><html><head><title>leaky</title></head><body>"
                + "<img src=\"http://127.0.0.1:" + closedPort + "/logo.png\" alt=\"\"></body></html>");

        Page loaded = open(page);

        assertThat(loaded.requests()).anyMatch(url -> url.startsWith("http://127.0.0.1:" + closedPort));
        assertThat(loaded.severe()).isNotEmpty();
    }

    /** What loading a page showed: console entries at SEVERE and every URL the page requested. */
    private record Page(List<String> severe, List<String> requests) {
    }

    private static Page open(Path html) throws IOException {
        browser.manage().logs().get(LogType.BROWSER); // drain what earlier pages left
        browser.manage().logs().get(LogType.PERFORMANCE);
        browser.get(html.toUri().toString());
        List<String> severe = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
                severe.add(entry.getMessage());
            }
        }
        List<String> requests = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = JSON.readTree(entry.getMessage()).path("message");
            if (message.path("method").asText().equals("Network.requestWillBeSent")) {
                requests.add(message.path("params").path("request").path("url").asText());
            }
        }
        return new Page(severe, requests);
    }

    /** The points of one series of a line plot, x to y, read from the DOM. */
    @SuppressWarnings("unchecked")
    private static Map<Double, Double> points(WebElement svg, String series) {
        List<List<String>> pairs = (List<List<String>>) ((JavascriptExecutor) browser).executeScript(
                "return Array.from(arguments[0].querySelectorAll('circle.point'))"
                        + ".filter(c => c.getAttribute('data-series') === arguments[1])"
                        + ".map(c => [c.getAttribute('data-x'), c.getAttribute('data-y')]);", svg, series);
        Map<Double, Double> points = new java.util.TreeMap<>();
        for (List<String> pair : pairs) {
            points.put(Math.round(Double.parseDouble(pair.get(0)) * 1e6) / 1e6, Double.parseDouble(pair.get(1)));
        }
        return points;
    }

    /** The distinct values of {@code attribute} over the elements matching {@code css} inside {@code svg}. */
    private static java.util.Set<String> distinct(WebElement svg, String css, String attribute) {
        java.util.Set<String> values = new java.util.HashSet<>();
        svg.findElements(By.cssSelector(css)).forEach(e -> values.add(e.getAttribute(attribute)));
        return values;
    }

    /** A column of the fixture run's results.csv for one cell, a value per repetition (the fixture has no quoted commas). */
    private static List<Double> column(Path run, String cell, String column) throws IOException {
        List<String> lines = Files.readAllLines(run.resolve("results.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        List<Double> values = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            if (fields[header.indexOf("cell")].equals(cell)) {
                values.add(Double.parseDouble(fields[header.indexOf(column)]));
            }
        }
        return values;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Every interval histogram of an .hlog, read with HdrHistogram's own reader. */
    private static List<Histogram> intervals(Path hlog) {
        List<Histogram> intervals = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                intervals.add((Histogram) h);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return intervals;
    }

    /** How many elements match {@code css} inside {@code svg} and have a non-empty rendered box. */
    private static int drawn(WebElement svg, String css) {
        Object count = ((JavascriptExecutor) browser).executeScript(
                "return Array.from(arguments[0].querySelectorAll(arguments[1])).filter(e => {"
                        + " const b = e.getBoundingClientRect(); return (b.width > 0 || b.height > 0)"
                        + " && getComputedStyle(e).visibility !== 'hidden'; }).length;", svg, css);
        return ((Number) count).intValue();
    }
}
