package org.edgelab.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PluginRegistryTest {

    private record Thing(String name, String description) implements NamedPlugin {
    }

    @Test
    void findsByNameAndListsSorted() {
        PluginRegistry<Thing> r = PluginRegistry.of("widget", new Thing("b", "B"), new Thing("a", "A"));
        assertThat(r.get("a").description()).isEqualTo("A");
        assertThat(r.names()).containsExactly("a", "b");
        assertThat(r.all()).extracting(Thing::name).containsExactly("a", "b");
        assertThat(r.kind()).isEqualTo("widget");
    }

    @Test
    void unknownNameFailsListingTheKnownOnes() {
        PluginRegistry<Thing> r = PluginRegistry.of("widget", new Thing("b", "B"), new Thing("a", "A"));
        assertThatThrownBy(() -> r.get("c"))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessage("unknown widget 'c'; known widgets: a, b");
        assertThatThrownBy(() -> PluginRegistry.<Thing>of("widget").get("c"))
                .hasMessageContaining("none (is the plugin's jar on the class path?)");
    }

    @Test
    void twoPluginsClaimingOneNameFail() {
        assertThatThrownBy(() -> PluginRegistry.of("widget", new Thing("a", "1"), new Thing("a", "2")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("two widget plugins claim the name 'a'");
    }

    @Test
    void loadsServiceLoaderPlugins() {
        PluginRegistry<ExamplePlugin> r = PluginRegistry.load("example", ExamplePlugin.class);
        assertThat(r.names()).containsExactly("first", "second");
        assertThat(r.get("second")).isInstanceOf(ExamplePlugin.Second.class);
    }
}
