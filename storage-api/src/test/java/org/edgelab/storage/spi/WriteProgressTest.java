package org.edgelab.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.edgelab.storage.api.CacheKey;
import org.edgelab.storage.api.WriteAbortedException;
import org.junit.jupiter.api.Test;

/** The write-progress primitive every engine's followers wait on. */
class WriteProgressTest {

    private static final CacheKey KEY = CacheKey.of("k");

    @Test
    void waitersCompleteOnceTheirLengthIsPublishedAndLengthsOnlyGrow() throws Exception {
        WriteProgress p = WriteProgress.writing(KEY);
        CompletableFuture<Long> ten = p.await(10);
        CompletableFuture<Long> hundred = p.await(100);
        p.advance(50);
        assertThat(ten.get(1, TimeUnit.SECONDS)).isEqualTo(50);
        assertThat(hundred).isNotDone();
        p.advance(20);
        assertThat(p.readable()).as("a smaller length is ignored").isEqualTo(50);
        assertThat(p.await(50)).as("already published").isCompletedWithValue(50L);
        p.commit(70);
        assertThat(hundred.get(1, TimeUnit.SECONDS)).as("a commit completes every waiter with the final length")
                .isEqualTo(70);
        assertThat(p.await(Long.MAX_VALUE)).isCompletedWithValue(70L);
        assertThat(p.isCommitted()).isTrue();
        assertThatThrownBy(() -> p.commit(70)).isInstanceOf(IllegalStateException.class);
        assertThat(p.abort()).as("abort after commit").isFalse();
    }

    @Test
    void anAbortFailsOnlyTheWaitsBeyondWhatWasPublished() {
        WriteProgress p = WriteProgress.writing(KEY);
        p.advance(30);
        CompletableFuture<Long> beyond = p.await(31);
        assertThat(p.abort()).isTrue();
        assertThatThrownBy(() -> beyond.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(WriteAbortedException.class);
        assertThat(p.await(30)).as("within what was published").isCompletedWithValue(30L);
        assertThat(p.await(31)).isCompletedExceptionally();
        p.advance(100);
        assertThat(p.readable()).as("nothing is published after the abort").isEqualTo(30);
        assertThatThrownBy(() -> p.commit(30)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCommitCannotHideBytesAlreadyPublished() {
        WriteProgress p = WriteProgress.writing(KEY);
        p.advance(10);
        assertThatThrownBy(() -> p.commit(9)).isInstanceOf(IllegalArgumentException.class);
        assertThat(WriteProgress.committed(KEY, 5).await(6)).isCompletedWithValue(5L);
    }

    @Test
    void racingPublishersAndWaitersNeverLoseAWakeUp() throws Exception {
        for (int round = 0; round < 200; round++) {
            WriteProgress p = WriteProgress.writing(KEY);
            List<CompletableFuture<Long>> waits = new ArrayList<>();
            Thread writer = new Thread(() -> {
                for (long n = 1; n <= 2000; n++) {
                    p.advance(n);
                }
            });
            writer.start();
            for (long min = 1; min <= 2000; min += 97) {
                waits.add(p.await(min));
            }
            writer.join();
            for (int i = 0; i < waits.size(); i++) {
                long min = 1 + 97L * i;
                assertThat(waits.get(i).get(1, TimeUnit.SECONDS)).as("round %d, wait for %d", round, min)
                        .isGreaterThanOrEqualTo(min);
            }
        }
    }

    @Test
    void callbacksRunOutsideTheMonitorSoTheyMayAwaitAgain() throws Exception {
        WriteProgress p = WriteProgress.writing(KEY);
        CompletableFuture<Long> chained = p.await(1).thenCompose(n -> p.await(n + 1));
        p.advance(1);
        assertThat(chained).isNotDone();
        Thread other = new Thread(() -> p.advance(2));
        other.start();
        other.join(1000);
        assertThat(chained.get(1, TimeUnit.SECONDS)).isEqualTo(2);
    }
}
