package org.edgelab.cache.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The store executor: bounded, callers past its room wait in line in order, closing drains it, and calls made along
 * others wake no thread of their own while the lane is busy.
 */
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

    @Test
    void aCallMadeAlongABusyLaneRunsAfterTheRunningCallOnItsThreadWithoutACallOfItsOwn() throws Exception {
        StoreExecutor ex = new StoreExecutor("test", 1, 0);
        try {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch gate = new CountDownLatch(1);
            List<String> order = new CopyOnWriteArrayList<>();
            ex.execute(() -> {
                running.countDown();
                try {
                    gate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                order.add("call on " + Thread.currentThread().getName());
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            CountDownLatch rode = new CountDownLatch(1);
            ex.executeAlong(() -> {
                order.add("rider on " + Thread.currentThread().getName());
                rode.countDown();
            });
            assertThat(rode.getCount()).as("the rider waits for the running call").isOne();
            gate.countDown();
            assertThat(rode.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(order).containsExactly("call on edgelab-store-test-1", "rider on edgelab-store-test-1");
            assertThat(ex.totals()[0]).as("no call was made for the rider").isOne();
        } finally {
            ex.close(10_000);
        }
    }

    @Test
    void aCallMadeAlongAnIdleLaneRunsAtOnceOnAThreadOfTheLane() throws Exception {
        StoreExecutor ex = new StoreExecutor("test", 2, 0);
        try {
            for (int i = 0; i < 50; i++) { // an idle lane each time: nobody else would ever run the rider
                java.util.concurrent.CompletableFuture<String> ran = new java.util.concurrent.CompletableFuture<>();
                ex.executeAlong(() -> ran.complete(Thread.currentThread().getName()));
                assertThat(ran.get(10, TimeUnit.SECONDS)).startsWith("edgelab-store-test-");
            }
        } finally {
            ex.close(10_000);
        }
        java.util.concurrent.atomic.AtomicReference<String> afterClose = new java.util.concurrent.atomic.AtomicReference<>();
        ex.executeAlong(() -> afterClose.set(Thread.currentThread().getName()));
        assertThat(afterClose.get()).as("after close it runs on the caller").isEqualTo(Thread.currentThread().getName());
    }

    @Test
    void aLaneIsStalledOnlyWhileEveryThreadIsBusyAndNoCallFinishesCountedFromWhenTheLastThreadWasTaken() throws Exception {
        StoreExecutor ex = new StoreExecutor("test", 2, 4);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(2);
        try {
            Thread.sleep(300); // an idle lane: its last call (none) is long ago, which must not count as a stall
            ex.execute(() -> {
                running.countDown();
                await(gate);
            });
            assertThat(ex.stalledNanos()).as("one thread is free").isZero();
            long secondTaken = System.nanoTime();
            ex.execute(() -> {
                running.countDown();
                await(gate);
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ex.stalledNanos()).as("counted from when the last thread was taken, not from the idle time")
                    .isLessThanOrEqualTo(System.nanoTime() - secondTaken);
            Thread.sleep(200);
            assertThat(ex.stalledNanos()).as("every thread busy, no call finished").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
            gate.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ex.admitted() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(ex.stalledNanos()).as("the calls finished").isZero();
        } finally {
            gate.countDown();
            ex.close(10_000);
        }
    }

    private static void await(CountDownLatch gate) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
