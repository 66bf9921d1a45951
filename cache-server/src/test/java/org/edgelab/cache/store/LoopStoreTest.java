package org.edgelab.cache.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.util.concurrent.DefaultEventExecutor;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.api.ObjectStore;
import org.edgelab.storage.api.StoreCall;
import org.edgelab.storage.api.StoredObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** LoopStore's routing: each blocking call on its lane's threads, calls that never block inline. */
class LoopStoreTest {

    private final StoreExecutor reads = new StoreExecutor("loopstore-read", 1, 0);
    private final StoreExecutor writes = new StoreExecutor("loopstore-write", 1, 0);
    private final DefaultEventExecutor loop = new DefaultEventExecutor();

    @AfterEach
    void stop() {
        reads.close(5_000);
        writes.close(5_000);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** A store that only declares its blocking calls (LoopStore asks nothing else of it). */
    private static ObjectStore declaring(Set<StoreCall> blocking) {
        return (ObjectStore) Proxy.newProxyInstance(LoopStoreTest.class.getClassLoader(),
                new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "blockingCalls" -> blocking;
                    case "engineName" -> "declared";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Makes {@code call} (and {@code alsoCall}) through {@code store}; returns the name of the thread its body ran on. */
    private String threadOf(LoopStore store, StoreCall call, StoreCall alsoCall) throws Exception {
        CompletableFuture<String> ran = new CompletableFuture<>();
        store.call(call, alsoCall, loop, () -> Thread.currentThread().getName(), (name, err) -> {
            if (err != null) {
                ran.completeExceptionally(err);
            } else {
                ran.complete(name);
            }
        });
        return ran.get(10, TimeUnit.SECONDS);
    }

    /** A stored object that only reports the thread it is closed on. */
    private static StoredObject closedOn(CompletableFuture<String> thread) {
        return (StoredObject) Proxy.newProxyInstance(LoopStoreTest.class.getClassLoader(),
                new Class<?>[] {StoredObject.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        thread.complete(Thread.currentThread().getName());
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void eachBlockingCallRunsOnItsLanesThreadsAndAReleaseOnTheReadLanes() throws Exception {
        LoopStore store = new LoopStore(declaring(StoreCall.all()), reads, writes);
        for (StoreCall call : StoreCall.values()) {
            String lane = StoreLane.of(call) == StoreLane.READ ? "loopstore-read" : "loopstore-write";
            assertThat(threadOf(store, call, call)).as("%s", call).startsWith("edgelab-store-" + lane + "-");
        }
        CompletableFuture<String> released = new CompletableFuture<>();
        store.release(closedOn(released));
        assertThat(released.get(10, TimeUnit.SECONDS)).startsWith("edgelab-store-loopstore-read-");
        assertThat(threadOf(store, StoreCall.LOOKUP, StoreCall.RELEASE)).startsWith("edgelab-store-loopstore-read-");
        assertThat(threadOf(store, StoreCall.READ, StoreCall.REMOVE)).startsWith("edgelab-store-loopstore-write-");
        assertThat(store.executor(StoreLane.READ)).isSameAs(reads);
        assertThat(store.executor(StoreLane.WRITE)).isSameAs(writes);
    }

    @Test
    void callsThatNeverBlockRunInlineWhateverTheirLane() throws Exception {
        LoopStore store = new LoopStore(declaring(Set.of()), reads, writes);
        String here = Thread.currentThread().getName();
        assertThat(threadOf(store, StoreCall.WRITE, StoreCall.COMMIT)).isEqualTo(here);
        assertThat(threadOf(store, StoreCall.LOOKUP, StoreCall.RELEASE)).isEqualTo(here);
        CompletableFuture<String> released = new CompletableFuture<>();
        store.release(closedOn(released));
        assertThat(released.getNow("not yet")).isEqualTo(here);
        assertThat(reads.totals()[0] + writes.totals()[0]).as("no thread hop").isZero();
    }

    @Test
    void aLookupIsNotHeldBehindAWriteThatHoldsEveryWriteThread() throws Exception {
        LoopStore store = new LoopStore(declaring(StoreCall.all()), reads, writes);
        CountDownLatch deviceThrottles = new CountDownLatch(1);
        CountDownLatch writing = new CountDownLatch(1);
        CompletableFuture<Boolean> written = new CompletableFuture<>();
        store.call(StoreCall.WRITE, loop, () -> {
            writing.countDown();
            return deviceThrottles.await(30, TimeUnit.SECONDS);
        }, (ok, err) -> written.complete(ok));
        CompletableFuture<Boolean> queuedWrite = new CompletableFuture<>();
        store.call(StoreCall.COMMIT, loop, () -> true, (ok, err) -> queuedWrite.complete(ok));
        assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(threadOf(store, StoreCall.LOOKUP, StoreCall.RELEASE)).as("the lookup ran while the write is held")
                .startsWith("edgelab-store-loopstore-read-");
        assertThat(written).isNotDone();
        assertThat(queuedWrite).as("the write lane's next call waits for its one thread").isNotDone();

        deviceThrottles.countDown();
        assertThat(written.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(queuedWrite.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theLanesNeedAnExecutorEach() {
        assertThatThrownBy(() -> new LoopStore(declaring(Set.of()), reads, reads))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
