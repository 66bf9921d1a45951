package org.edgelab.architecture;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.edgelab.cache.archfixture.UsesTheOrigin;
import org.edgelab.peers.archfixture.a.A;
import org.edgelab.peers.archfixture.b.B;
import org.edgelab.storage.lmdb.LmdbEngine;
import org.edgelab.storage.lmdb.archfixture.UsesTheMemoryEngine;
import org.edgelab.storage.memory.MemoryEngine;
import org.edgelab.storage.raw.archfixture.TouchesNetty;
import org.edgelab.storage.raw.log.RawLogEngine;
import org.edgelab.storage.tier.TieredEngine;
import org.junit.jupiter.api.Test;

/**
 * Each rule fails on a class made to break it (the fixtures in this module's test code, which the
 * rules' own runs leave out as test code) and passes on the real main code, so none of them passes
 * because it checks nothing.
 */
class RulesCatchViolationsTest {

    private static JavaClasses classes(Class<?>... types) {
        return new ClassFileImporter().importClasses(types);
    }

    @Test
    void cacheServerUsingTheOriginBreaksTheLayering() {
        assertThatThrownBy(() -> ModuleLayeringTest.modulesUseOnlyTheModulesBelowThem.check(classes(UsesTheOrigin.class,
                org.edgelab.origin.OriginServer.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("UsesTheOrigin").hasMessageContaining("OriginServer");
    }

    @Test
    void storageUsingNettyBreaksTheNettyFreeRule() {
        assertThatThrownBy(() -> ModuleLayeringTest.storageIsNettyFree.check(classes(TouchesNetty.class)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("io.netty.buffer.ByteBuf");
    }

    @Test
    void anEngineUsingAnotherEnginesClassBreaksTheEnginesRule() {
        // with a class of every engine package, so that no part of the rule fails for want of classes
        Class<?>[] engines = {MemoryEngine.class, RawLogEngine.class, TieredEngine.class, LmdbEngine.class};
        assertThatCode(() -> ModuleLayeringTest.enginesDoNotUseEachOthersClasses.check(classes(engines)))
                .doesNotThrowAnyException();
        Class<?>[] withFixture = {MemoryEngine.class, RawLogEngine.class, TieredEngine.class, LmdbEngine.class, UsesTheMemoryEngine.class};
        assertThatThrownBy(() -> ModuleLayeringTest.enginesDoNotUseEachOthersClasses.check(classes(withFixture)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("UsesTheMemoryEngine").hasMessageContaining("org.edgelab.storage.memory.MemoryEngine");
    }

    @Test
    void theRunnerNamingTheNetnsTargetsClassBreaksTheByNameRule() {
        assertThatCode(() -> ModuleLayeringTest.runnerFindsTheNetnsTargetByName.check(classes(
                org.edgelab.experiments.runner.ExperimentRunner.class, org.edgelab.experiments.netns.NetnsTarget.class)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ModuleLayeringTest.runnerFindsTheNetnsTargetByName.check(classes(
                org.edgelab.experiments.runner.archfixture.NamesTheNetnsTarget.class, org.edgelab.experiments.netns.NetnsTarget.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("NamesTheNetnsTarget").hasMessageContaining("NetnsTarget");
    }

    @Test
    void twoPackagesUsingEachOtherBreakTheCycleRule() {
        assertThatThrownBy(() -> PackageCyclesTest.noCyclesIn(Module.PEERS).check(classes(A.class, B.class)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Cycle detected");
        assertThatCode(() -> PackageCyclesTest.noCyclesIn(Module.PEERS).check(classes(A.class)))
                .as("one package alone is no cycle").doesNotThrowAnyException();
    }
}
