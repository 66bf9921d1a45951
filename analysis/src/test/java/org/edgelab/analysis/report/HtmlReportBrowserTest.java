package org.edgelab.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
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
 * that is not a file, and draw every plot with the fixture's number of series and points.
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
        Map<String, int[]> expected = Map.ofEntries(
                Map.entry("varnish-edge-ttlb-p99-by-size", new int[] {4, 12}),           // 2 engines x 2 concurrencies, 3 sizes
                Map.entry("varnish-edge-ttlb-p99-by-concurrency", new int[] {6, 12}),    // 2 engines x 3 sizes, 2 concurrencies
                Map.entry("varnish-edge-throughput-by-concurrency", new int[] {6, 12}),
                Map.entry("varnish-edge-hit-ratio-by-size", new int[] {4, 12}),
                Map.entry("varnish-edge-requests-per-watt-by-size", new int[] {4, 12}),
                Map.entry("varnish-edge-gbps-per-watt-by-size", new int[] {4, 12}),
                Map.entry("booster-http-ttlb-p99-by-concurrency", new int[] {4, 8}),     // 2 servers x 2 range sizes, 2 concurrencies
                Map.entry("booster-http-throughput-by-concurrency", new int[] {4, 8}),
                Map.entry("video-streams-streams-sustained", new int[] {2, 2}));         // 2 server builds
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
            } else {
                assertThat(svg.findElements(By.cssSelector("polyline.series"))).as(id + " series").hasSize(counts[0]);
                assertThat(drawn(svg, "circle.point")).as(id + " points").isEqualTo(counts[1]);
            }
        }
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

    /** How many elements match {@code css} inside {@code svg} and have a non-empty rendered box. */
    private static int drawn(WebElement svg, String css) {
        Object count = ((JavascriptExecutor) browser).executeScript(
                "return Array.from(arguments[0].querySelectorAll(arguments[1])).filter(e => {"
                        + " const b = e.getBoundingClientRect(); return (b.width > 0 || b.height > 0)"
                        + " && getComputedStyle(e).visibility !== 'hidden'; }).length;", svg, css);
        return ((Number) count).intValue();
    }
}
