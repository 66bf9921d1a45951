package org.edgelab.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerImageContextTest {

    @TempDir
    Path dir;

    @Test
    void entriesKeepClassPathOrderUnderNumberedNamesAndMakeTheImagesClassPath() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path jarA = Files.writeString(dir.resolve("a.jar"), "A");
        Path jarB = Files.writeString(Files.createDirectories(dir.resolve("other")).resolve("a.jar"), "B");

        ServerImageContext context = ServerImageContext.of("edgelab-java:abc", List.of(classes, jarA, jarB));

        assertThat(context.entries()).extracting(ServerImageContext.Entry::name).containsExactly("00-classes", "01-a.jar", "02-a.jar");
        assertThat(context.entries()).extracting(ServerImageContext.Entry::source).containsExactly(classes, jarA, jarB);
        assertThat(context.classPathInImage()).isEqualTo("/opt/edgelab/cp/00-classes:/opt/edgelab/cp/01-a.jar:/opt/edgelab/cp/02-a.jar");
        assertThat(context.dockerfile()).startsWith("FROM edgelab-java:abc\n").contains("COPY cp/ /opt/edgelab/cp/\n");
    }

    @Test
    void theImageNameChangesWithAnyContentAndOnlyThen() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(Files.createDirectories(classes.resolve("org")).resolve("A.class"), "one");
        Path jar = Files.writeString(dir.resolve("x.jar"), "jar");
        String first = ServerImageContext.of("base:1", List.of(classes, jar)).imageName();

        assertThat(first).matches("edgelab-server:[0-9a-f]{16}");
        assertThat(ServerImageContext.of("base:1", List.of(classes, jar)).imageName()).isEqualTo(first);

        Files.writeString(classes.resolve("org/A.class"), "two");
        String classChanged = ServerImageContext.of("base:1", List.of(classes, jar)).imageName();
        assertThat(classChanged).isNotEqualTo(first);

        Files.writeString(classes.resolve("org/B.class"), "");
        String classAdded = ServerImageContext.of("base:1", List.of(classes, jar)).imageName();
        assertThat(classAdded).isNotEqualTo(classChanged);

        assertThat(ServerImageContext.of("base:2", List.of(classes, jar)).imageName()).isNotEqualTo(classAdded);
        assertThat(ServerImageContext.of("base:1", List.of(jar, classes)).imageName()).isNotEqualTo(classAdded);
    }

    @Test
    void odditiesAreRefusedOrMadeSafe() throws IOException {
        assertThatThrownBy(() -> ServerImageContext.of("b", List.of())).hasMessageContaining("class path is empty");
        assertThatThrownBy(() -> ServerImageContext.of("b", List.of(dir.resolve("gone.jar")))).hasMessageContaining("gone.jar");
        Path odd = Files.writeString(dir.resolve("a b:c.jar"), "x");
        assertThat(ServerImageContext.of("b", List.of(odd)).entries().get(0).name()).isEqualTo("00-a_b_c.jar");
    }
}
