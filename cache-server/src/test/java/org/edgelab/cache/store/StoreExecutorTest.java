package org.edgelab.cache.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store executor: bounded, callers past its room wait in line in order, and closing drains it. */
class StoreExecutorTest {

    @Test
    void callsPastThePoolsRoomWaitInLineAndRunInOrderOnceThereIsRoom() throws Exception {
        StoreExecutor ex = new StoreExecutor("test", 1, 1);
        CountDownLatch gate = new CountDownLatch(1);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 6; i++) {
            int n = i;
            ex.execute(() -> {
                try {
                    gate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ran.add(n);
            });
        }
        // one running, one queued for the thread, four waiting in line: the pool itself holds two
        assertThat(ex.admitted()).isEqualTo(2);
        assertThat(ex.waiting()).isEqualTo(4);
        assertThat(ex.totals()).containsExactly(6, 4);
        gate.countDown();
        ex.close(10_000);
        assertThat(ran).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(ex.admitted()).isZero();
        assertThat(ex.waiting()).isZero();
    }

    @Test
    void closingRunsEveryCallAlreadyTakenThenRefusesNewOnes() throws Exception {
        StoreExecutor ex = new StoreExecutor("test", 2, 0);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 20; i++) {
            int n = i;
            ex.execute(() -> {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ran.add(n);
            });
        }
        ex.close(10_000);
        assertThat(ran).hasSize(20);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ex.execute(() -> { }))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }
}
