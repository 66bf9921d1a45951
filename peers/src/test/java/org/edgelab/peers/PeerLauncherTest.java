package org.edgelab.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's retries, with a stand-in peer (a shell that crashes by SIGSEGV, then a JDK HTTP server).
 * Regression: Traffic Server sometimes segfaults while it starts on a loaded machine, and the peers tests
 * failed with "traffic_server exited with status 139 before it did answer".
 */
class PeerLauncherTest {

    @TempDir
    Path dir;

    /** A command that dies by SIGSEGV while {@code crashes} marker files are still missing, then serves HTTP on the port. */
    private List<String> crashingThenServing(int port, int crashes) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String script = "for i in $(seq 1 " + crashes + "); do if [ ! -e crashed-$i ]; then touch crashed-$i; kill -SEGV $$; fi; done; "
                + "exec '" + java + "' -cp '" + cp + "' '" + TinyHttp.class.getName() + "' " + port;
        return List.of("sh", "-c", script);
    }

    @Test
    void aStartThatCrashesBySignalIsRetriedOnceAndItsLogIsKept() throws Exception {
        Path work = dir.resolve("work");
        PeerLauncher.Launched launched = PeerLauncher.launch("stand-in", work, Duration.ofSeconds(30), "/",
                port -> crashingThenServing(port, 1));
        try {
            assertThat(launched.process().alive()).isTrue();
            assertThat(work.resolve("crashed-1")).exists();
            assertThat(work.resolve("stand-in.crash-1.log")).exists();
        } finally {
            launched.process().close();
        }
    }

    @Test
    void aSecondCrashFailsTheStart() {
        Path work = dir.resolve("work");
        assertThatThrownBy(() -> PeerLauncher.launch("stand-in", work, Duration.ofSeconds(30), "/",
                port -> crashingThenServing(port, 2)))
                .isInstanceOf(IOException.class).hasMessageContaining("exited with status 139");
    }

    /** The stand-in's server: answers 200 to everything on 127.0.0.1:PORT until killed. */
    public static final class TinyHttp {
        public static void main(String[] args) throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    Integer.parseInt(args[0])), 16);
            server.createContext("/", exchange -> {
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
        }
    }
}
