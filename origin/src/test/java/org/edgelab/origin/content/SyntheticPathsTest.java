package org.edgelab.origin.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.edgelab.origin.content.SyntheticPaths.SyntheticObject;
import org.junit.jupiter.api.Test;

class SyntheticPathsTest {

    @Test
    void pathAndParseRoundTrip() {
        String path = SyntheticPaths.path("obj-1.v2_x", 102_400);
        assertThat(path).isEqualTo("/objects/102400/obj-1.v2_x");
        assertThat(SyntheticPaths.parse(path)).contains(new SyntheticObject("obj-1.v2_x", 102_400));
    }

    @Test
    void sizesMayUseByteSizeUnits() {
        assertThat(SyntheticPaths.parse("/objects/100KB/a")).contains(new SyntheticObject("a", 100_000));
        assertThat(SyntheticPaths.parse("/objects/10MiB/a")).contains(new SyntheticObject("a", 10L << 20));
        assertThat(SyntheticPaths.parse("/objects/2TiB/a")).contains(new SyntheticObject("a", 2L << 40));
        assertThat(SyntheticPaths.parse("/objects/0/empty")).contains(new SyntheticObject("empty", 0));
    }

    @Test
    void queryAndFragmentAreIgnored() {
        assertThat(SyntheticPaths.parse("/objects/5/a?status=503&rate=1MiB")).contains(new SyntheticObject("a", 5));
        assertThat(SyntheticPaths.parse("/objects/5/a#x")).contains(new SyntheticObject("a", 5));
    }

    @Test
    void rejectsOtherPaths() {
        assertThat(SyntheticPaths.parse("/objects/5")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects//a")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/5/")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/5/a/b")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/5/a%20b")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/-5/a")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/5XB/a")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/1.5B/a")).isEmpty();
        assertThat(SyntheticPaths.parse("/other/5/a")).isEmpty();
        assertThat(SyntheticPaths.parse("/objects/5/" + "x".repeat(201))).isEmpty();
        assertThat(SyntheticPaths.parse(null)).isEmpty();
    }

    @Test
    void pathRejectsBadIds() {
        assertThatThrownBy(() -> SyntheticPaths.path("a/b", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[A-Za-z0-9._-]");
        assertThatThrownBy(() -> SyntheticPaths.path("a", -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
