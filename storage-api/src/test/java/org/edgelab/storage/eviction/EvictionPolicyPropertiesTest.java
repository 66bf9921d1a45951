package org.edgelab.storage.eviction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** Invariants every registered eviction policy keeps, checked against a set of tracked keys. */
class EvictionPolicyPropertiesTest {

    /** One call on a policy. */
    record Op(char kind, int key, long size) {
    }

    @Provide
    Arbitrary<String> policies() {
        return Arbitraries.of(List.copyOf(EvictionPolicies.registry().names()));
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Integer> keys = Arbitraries.integers().between(0, 40);
        Arbitrary<Long> sizes = Arbitraries.longs().between(0, 5_000);
        return Arbitraries.frequencyOf(
                        Tuple.of(5, net.jqwik.api.Combinators.combine(keys, sizes).as((k, s) -> new Op('i', k, s))),
                        Tuple.of(5, keys.map(k -> new Op('a', k, 0))),
                        Tuple.of(1, keys.map(k -> new Op('r', k, 0))),
                        Tuple.of(3, Arbitraries.just(new Op('e', 0, 0))))
                .list().ofMaxSize(300);
    }

    @Property(tries = 100)
    void everyInsertedKeyIsEvictedExactlyOnceUnlessRemoved(@ForAll("policies") String name,
                                                          @ForAll("operations") List<Op> ops) {
        EvictionPolicy<Integer> policy = EvictionPolicies.create(name, 50_000);
        Set<Integer> tracked = new HashSet<>();
        for (Op op : ops) {
            switch (op.kind()) {
                case 'i' -> {
                    policy.onInsert(op.key(), op.size());
                    tracked.add(op.key());
                }
                case 'a' -> policy.onAccess(op.key());
                case 'r' -> {
                    policy.onRemove(op.key());
                    tracked.remove(op.key());
                }
                default -> {
                    Integer victim = policy.evict();
                    if (tracked.isEmpty()) {
                        assertThat(victim).as(name + ": evict() with nothing tracked").isNull();
                    } else {
                        assertThat(victim).as(name + ": evict() with keys tracked").isNotNull();
                        assertThat(tracked.remove(victim)).as(name + ": victim " + victim + " was tracked").isTrue();
                    }
                }
            }
            assertThat(policy.size()).as(name + ": size() after " + op).isEqualTo(tracked.size());
        }
        List<Integer> drained = new ArrayList<>();
        for (Integer victim = policy.evict(); victim != null; victim = policy.evict()) {
            drained.add(victim);
        }
        assertThat(drained).as(name + ": drained keys").doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(tracked);
        assertThat(policy.size()).isZero();
        assertThat(policy.evict()).isNull();
    }
}
