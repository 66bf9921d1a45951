package org.edgelab.storage.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineSettingsTest {

    private static final List<EngineSettings.Spec> SPECS = List.of(
            new EngineSettings.Spec("capacity", "1g", "bytes"),
            new EngineSettings.Spec("disks", null, "directories"),
            new EngineSettings.Spec("direct", "false", "O_DIRECT"));

    @Test
    void typedGettersParseOrFallBackToDefaults() {
        EngineSettings s = EngineSettings.parse(List.of("capacity=4g", "disks = /a, /b ,", "direct=yes", "segments=12"));
        assertThat(s.bytes("capacity", 1)).isEqualTo(4L << 30);
        assertThat(s.bytes("absent", 77)).isEqualTo(77);
        assertThat(s.paths("disks", List.of())).containsExactly(Path.of("/a"), Path.of("/b"));
        assertThat(s.bool("direct", false)).isTrue();
        assertThat(s.bool("absent", true)).isTrue();
        assertThat(s.integer("segments", 0)).isEqualTo(12);
        assertThat(s.integer("absent", 5)).isEqualTo(5);
        assertThat(s.string("absent", "x")).isEqualTo("x");
        assertThat(s.requiredString("capacity")).isEqualTo("4g");
        assertThat(EngineSettings.of("a", "1").with("b", "2").withAll(EngineSettings.of("a", "3")).asMap())
                .containsEntry("a", "3").containsEntry("b", "2");
    }

    @Test
    void badValuesFailNamingTheSetting() {
        EngineSettings s = EngineSettings.of("capacity", "4 giga", "segments", "many", "direct", "maybe", "disks", " , ");
        assertThatThrownBy(() -> s.bytes("capacity", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'capacity'").hasMessageContaining("'4 giga'");
        assertThatThrownBy(() -> s.integer("segments", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'segments'").hasMessageContaining("'many'");
        assertThatThrownBy(() -> s.bool("direct", false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'direct'").hasMessageContaining("'maybe'");
        assertThatThrownBy(() -> s.paths("disks", List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'disks'");
        assertThatThrownBy(() -> s.requiredString("missing")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'missing' is required");
        assertThatThrownBy(() -> EngineSettings.parse(List.of("novalue"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'novalue'").hasMessageContaining("name=value");
        assertThatThrownBy(() -> EngineSettings.of("odd")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requireOnlyNamesTheUnknownSettingAndListsTheKnownOnes() {
        EngineSettings.of("capacity", "1g", "disks", "/d").requireOnly("raw-log", SPECS);
        assertThatThrownBy(() -> EngineSettings.of("capacity", "1g", "capactiy", "2g").requireOnly("raw-log", SPECS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("engine 'raw-log' has no setting capactiy; its settings are: capacity, direct, disks");
    }
}
