package org.edgelab.experiments.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.edgelab.experiments.descriptor.Descriptor;
import org.edgelab.experiments.descriptor.yaml.BuiltinExperiments;
import org.edgelab.experiments.descriptor.yaml.DescriptorLoader;
import org.edgelab.experiments.target.ServerBuild;
import org.edgelab.plugin.PluginSettings;
import org.junit.jupiter.api.Test;

class EventBuiltinsTest {

    @Test
    void restartRunsReportAsLoadOverEveryEngineOnTheProcessTargetAndAShortQuickVariant() {
        for (boolean quick : new boolean[] {false, true}) {
            Descriptor d = DescriptorLoader.load("restart", quick);
            assertThat(d.kind()).isEqualTo("restart");
            assertThat(d.servers()).extracting(ServerBuild::engine).contains("raw-log", "raw-files", "lmdb", "tiered", "memory");
            assertThat(d.servers()).filteredOn(b -> !b.target().equals("varnish") && !b.target().equals("trafficserver"))
                    .extracting(ServerBuild::target).containsOnly("process");
            assertThat(d.load().connections()).containsExactly(100);
            assertThat(d.load().targetHitRatio()).isEqualTo(0.925);
            RestartExperiment.Plan plan = RestartExperiment.plan(d);
            assertThat(plan.killAt()).isLessThan(d.load().duration().dividedBy(2));
            if (quick) {
                // about 17 s per build: the quick run of 5 engines and 2 peers stays well inside 3 minutes
                assertThat(d.repetitions() * (d.load().duration().plus(d.load().settle().length()).toSeconds() + 5) * 7).isLessThan(150);
            }
        }
        assertThat(BuiltinExperiments.descriptions()).containsKeys("restart", "churn");
    }

    @Test
    void churnWritesTenTimesEachStoreInTheFullVariantAndBoundsTheServersMemory() {
        Descriptor full = DescriptorLoader.load("churn", false);
        assertThat(full.kind()).isEqualTo("churn");
        assertThat(PluginSettings.of(full.settings()).integer("churn_factor", 0)).isEqualTo(10);
        Descriptor quick = DescriptorLoader.load("churn", true);
        for (Descriptor d : java.util.List.of(full, quick)) {
            assertThat(d.servers()).extracting(ServerBuild::engine).contains("raw-log", "raw-files", "lmdb", "tiered", "memory");
            for (ServerBuild b : d.servers()) {
                long capacity = ChurnExperiment.capacity(b, PluginSettings.of(d.settings()));
                if (!b.engine().equals("memory")) {
                    // the page cache must not hold the whole store, or a churned page is rewritten in memory and the
                    // churn never reaches the device (a 256 MB store beside a 512 MiB cgroup did that)
                    assertThat(org.edgelab.units.ByteSize.parse(b.targetSettings().get("memory"))).as(b.name()).isLessThan(capacity);
                }
            }
        }
        assertThat(quick.load().duration()).isLessThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(quick.repetitions()).isEqualTo(1);
    }
}
