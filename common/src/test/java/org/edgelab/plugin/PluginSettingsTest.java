package org.edgelab.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one settings class of every plugin kind: typed getters, and errors that name the setting at fault. */
class PluginSettingsTest {

    private static final List<Setting> SPECS = List.of(
            new Setting("capacity", "1g", "bytes"),
            new Setting("disks", null, "directories"),
            new Setting("direct", "false", "O_DIRECT"));

    @Test
    void typedGettersParseOrFallBackToDefaults() {
        PluginSettings s = PluginSettings.parse(List.of("capacity=4g", "disks = /a, /b ,", "direct=yes", "segments=12",
                "ratio=0.5", "step=250ms", "policy=lru"));
        assertThat(s.bytes("capacity", 1)).isEqualTo(4L << 30);
        assertThat(s.bytes("absent", 77)).isEqualTo(77);
        assertThat(s.paths("disks", List.of())).containsExactly(Path.of("/a"), Path.of("/b"));
        assertThat(s.bool("direct", false)).isTrue();
        assertThat(s.bool("absent", true)).isTrue();
        assertThat(s.integer("segments", 0)).isEqualTo(12);
        assertThat(s.integer("segments", 0, 1, 12)).isEqualTo(12);
        assertThat(s.integer("absent", 5)).isEqualTo(5);
        assertThat(s.number("ratio", 1, 0)).isEqualTo(0.5);
        assertThat(s.duration("step", Duration.ZERO)).isEqualTo(Duration.ofMillis(250));
        assertThat(s.choice("policy", "fifo", List.of("lru", "fifo"))).isEqualTo("lru");
        assertThat(s.string("absent", "x")).isEqualTo("x");
        assertThat(s.required("capacity")).isEqualTo("4g");
        assertThat(s.has("ratio")).isTrue();
        assertThat(PluginSettings.of("a", "1").with("b", "2").withAll(PluginSettings.of("a", "3")).asMap())
                .containsEntry("a", "3").containsEntry("b", "2");
        assertThat(PluginSettings.of((java.util.Map<String, String>) null)).isSameAs(PluginSettings.EMPTY);
    }

    @Test
    void badValuesFailNamingTheSetting() {
        PluginSettings s = PluginSettings.of("capacity", "4 giga", "segments", "many", "direct", "maybe", "disks", " , ",
                "step", "5", "ratio", "-1", "policy", "random");
        assertThatThrownBy(() -> s.bytes("capacity", 0)).isInstanceOf(SettingException.class)
                .hasMessageContaining("'capacity'").hasMessageContaining("'4 giga'")
                .extracting(e -> ((SettingException) e).key()).isEqualTo("capacity");
        assertThatThrownBy(() -> s.integer("segments", 0)).hasMessageContaining("'segments'").hasMessageContaining("'many'");
        assertThatThrownBy(() -> PluginSettings.of("n", "99").integer("n", 0, 1, 10)).hasMessageContaining("between 1 and 10");
        assertThatThrownBy(() -> s.bool("direct", false)).hasMessageContaining("'direct'").hasMessageContaining("'maybe'");
        assertThatThrownBy(() -> s.paths("disks", List.of())).hasMessageContaining("'disks'");
        assertThatThrownBy(() -> s.duration("step", Duration.ZERO)).hasMessageContaining("'step'");
        assertThatThrownBy(() -> s.number("ratio", 0, 0)).hasMessageContaining(">= 0");
        assertThatThrownBy(() -> s.choice("policy", "lru", List.of("lru", "fifo"))).hasMessageContaining("one of lru, fifo");
        assertThatThrownBy(() -> s.required("missing")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'missing' is required");
        assertThatThrownBy(() -> PluginSettings.parse(List.of("novalue"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'novalue'").hasMessageContaining("name=value");
        assertThatThrownBy(() -> PluginSettings.of("odd")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requireOnlyNamesTheUnknownSettingAndListsTheKnownOnes() {
        PluginSettings.of("capacity", "1g", "disks", "/d").requireOnly("engine", "raw-log", SPECS);
        assertThatThrownBy(() -> PluginSettings.of("capacity", "1g", "capactiy", "2g").requireOnly("engine", "raw-log", SPECS))
                .isInstanceOf(SettingException.class)
                .hasMessage("engine 'raw-log' has no setting 'capactiy'; its settings are: capacity, direct, disks");
        assertThatThrownBy(() -> PluginSettings.of("x", "1").requireOnly("workload 'objects'", List.of()))
                .hasMessage("workload 'objects' has no setting 'x'; its settings are: none");
    }
}
