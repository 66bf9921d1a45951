package org.edgelab.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharedLibrariesTest {

    @Test
    void parsesLddOutputOfSeveralFilesSkippingTheVdsoAndWhatIsNotFound() {
        String output = """
                /opt/java/bin/java:
                \tlinux-vdso.so.1 (0x00007ffd5a1f3000)
                \tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f0b2c5a0000)
                \tlibjli.so => /opt/java/bin/../lib/libjli.so (0x00007f0b2c58f000)
                \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0b2c3ae000)
                \t/lib64/ld-linux-x86-64.so.2 (0x00007f0b2c5c7000)
                /opt/java/lib/libjava.so:
                \tlibjvm.so => not found
                \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0b2c3ae000)
                """;
        assertThat(SharedLibraries.parse(output)).containsExactly(Path.of("/lib/x86_64-linux-gnu/libc.so.6"),
                Path.of("/lib/x86_64-linux-gnu/libz.so.1"), Path.of("/lib64/ld-linux-x86-64.so.2"),
                Path.of("/opt/java/bin/../lib/libjli.so"));
    }

    @Test
    void theJavaLauncherOfThisJvmNeedsTheCLibraryAndTheLoader() throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        assertThat(SharedLibraries.of(List.of(java)))
                .anySatisfy(p -> assertThat(p.getFileName().toString()).startsWith("libc.so"))
                .anySatisfy(p -> assertThat(p.getFileName().toString()).startsWith("ld-linux"))
                .allSatisfy(p -> assertThat(Files.exists(p)).isTrue());
    }
}
