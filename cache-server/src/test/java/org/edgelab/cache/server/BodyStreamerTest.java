package org.edgelab.cache.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The body pump: exact bytes, part framing, following a growing object, and failure on abort. */
class BodyStreamerTest {

    private static byte[] data(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static final org.edgelab.cache.store.LoopStore INLINE = new org.edgelab.cache.store.LoopStore(
            new DeclaredStore(java.util.Set.of()), new org.edgelab.cache.store.StoreExecutor("test-read", 1, 0),
            new org.edgelab.cache.store.StoreExecutor("test-write", 1, 0));

    /** A streamer on the embedded channel's own scheduler, reading inline (nothing declared blocking). */
    private static BodyStreamer streamer(EmbeddedChannel ch, ArrayStoredObject obj, List<BodyStreamer.Part> parts,
                                         ByteBuf trailer, java.util.function.LongConsumer sent,
                                         BodyStreamer.Completion done) {
        return new BodyStreamer(ch, obj, parts, trailer, sent, done, new WriteScheduler(ch.eventLoop()), INLINE);
    }

    /** Runs the embedded loop's tasks (the scheduler's later turns) until {@code done} is told or 1000 rounds pass. */
    private static void runTurns(EmbeddedChannel ch, AtomicReference<Boolean> done) {
        for (int i = 0; i < 1000 && done.get() == null; i++) {
            ch.runScheduledPendingTasks();
            ch.runPendingTasks();
        }
    }

    /** Runs the embedded loop's pending and due scheduled tasks a few times (hand-overs, then the scheduler's turn). */
    private static void turns(EmbeddedChannel ch) {
        for (int i = 0; i < 5; i++) {
            ch.runPendingTasks();
            ch.runScheduledPendingTasks();
        }
    }

    /** Drains the channel's outbound messages into bytes; returns whether the body ended with LastHttpContent. */
    private static boolean drain(EmbeddedChannel ch, ByteArrayOutputStream out) {
        boolean ended = false;
        Object m;
        while ((m = ch.readOutbound()) != null) {
            try {
                if (m instanceof LastHttpContent) {
                    ended = true;
                } else if (m instanceof ByteBuf b) {
                    byte[] bytes = new byte[b.readableBytes()];
                    b.getBytes(b.readerIndex(), bytes);
                    out.writeBytes(bytes);
                }
            } finally {
                ReferenceCountUtil.release(m);
            }
        }
        return ended;
    }

    @Test
    void streamsTheRequestedBytesThroughCopiesOrViews() {
        for (boolean views : new boolean[] {false, true}) {
            byte[] body = data(200_000);
            ArrayStoredObject obj = new ArrayStoredObject(body, body.length, true, views);
            EmbeddedChannel ch = new EmbeddedChannel();
            AtomicReference<Boolean> done = new AtomicReference<>();
            AtomicLong sent = new AtomicLong();
            streamer(ch, obj, List.of(new BodyStreamer.Part(null, 1000, 150_000)), null, sent::addAndGet,
                    done::set).start();
                    turns(ch);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThat(drain(ch, out)).isTrue();
            assertThat(out.toByteArray()).isEqualTo(java.util.Arrays.copyOfRange(body, 1000, 150_000));
            assertThat(sent.get()).isEqualTo(149_000);
            assertThat(done.get()).isTrue();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void aBodyWritesAtMostTheLoopsTurnBeforeTheLoopPollsIoAgain() {
        // copies of 64 KiB: the first turn stops once it has written the turn's bytes, the rest waits for later turns
        byte[] body = data(10_000_000);
        ArrayStoredObject obj = new ArrayStoredObject(body, body.length, true, false);
        EmbeddedChannel ch = new EmbeddedChannel();
        AtomicLong sent = new AtomicLong();
        AtomicReference<Boolean> done = new AtomicReference<>();
        streamer(ch, obj, List.of(new BodyStreamer.Part(null, 0, -1)), null, sent::addAndGet, done::set).start();
        assertThat(sent.get()).isGreaterThanOrEqualTo(BodyStreamer.COPY_CHUNK)
                .isLessThanOrEqualTo(WriteScheduler.TURN_BYTES + WriteScheduler.SLICE_BYTES);
        assertThat(done.get()).isNull();
        runTurns(ch, done); // the scheduler goes on after each poll of the loop (LoopTurns)
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(drain(ch, out)).isTrue();
        assertThat(out.toByteArray()).isEqualTo(body);
        assertThat(done.get()).isTrue();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void aHeadGoesOutInTheTurnItIsReadyWhileAnotherBodyHoldsTheLoop() {
        // one scheduler for two channels (as for two connections of one loop): a 10 MB body uses the turn,
        // then a second response's head is flushed at once and its body waits for the next turn
        byte[] big = data(10_000_000);
        EmbeddedChannel a = new EmbeddedChannel();
        EmbeddedChannel b = new EmbeddedChannel();
        WriteScheduler scheduler = new WriteScheduler(a.eventLoop());
        AtomicLong sentA = new AtomicLong();
        AtomicLong sentB = new AtomicLong();
        AtomicReference<Boolean> doneA = new AtomicReference<>();
        AtomicReference<Boolean> doneB = new AtomicReference<>();
        BodyStreamer first = new BodyStreamer(a, new ArrayStoredObject(big, big.length, true, true),
                List.of(new BodyStreamer.Part(null, 0, -1)), null, sentA::addAndGet, doneA::set, scheduler, INLINE);
        first.start();
        while (sentA.get() < WriteScheduler.TURN_BYTES) {
            // the turn has room left only for its time slice: spend it on the first body's visits
            scheduler.ready(first);
            a.runScheduledPendingTasks();
            if (doneA.get() != null) {
                break;
            }
        }
        b.writeOneOutbound(io.netty.buffer.Unpooled.copiedBuffer("HEAD", java.nio.charset.StandardCharsets.US_ASCII));
        BodyStreamer second = new BodyStreamer(b, new ArrayStoredObject(big, big.length, true, true),
                List.of(new BodyStreamer.Part(null, 0, -1)), null, sentB::addAndGet, doneB::set, scheduler, INLINE);
        second.start();
        Object head = b.readOutbound();
        assertThat(head).as("the head is flushed in the turn it is ready").isNotNull();
        ReferenceCountUtil.release(head);
        for (int i = 0; i < 10_000 && (doneA.get() == null || doneB.get() == null); i++) {
            a.runScheduledPendingTasks();
            a.runPendingTasks();
            drain(a, new ByteArrayOutputStream());
            drain(b, new ByteArrayOutputStream());
        }
        assertThat(doneA.get()).isTrue();
        assertThat(doneB.get()).isTrue();
        assertThat(sentA.get()).isEqualTo(big.length);
        assertThat(sentB.get()).isEqualTo(big.length);
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    /** A channel that tells {@code streamer[0]} of writability changes, as the connection's handler does. */
    private static EmbeddedChannel channelFor(BodyStreamer[] streamer) {
        return new EmbeddedChannel(new io.netty.channel.ChannelInboundHandlerAdapter() {
            @Override
            public void channelWritabilityChanged(io.netty.channel.ChannelHandlerContext ctx) {
                if (streamer[0] != null) {
                    streamer[0].writabilityChanged();
                }
            }
        });
    }

    @Test
    void twoBodiesOfOneLoopShareItsTurnsRoundRobin() {
        byte[] big = data(4_000_000);
        BodyStreamer[] sa = new BodyStreamer[1];
        BodyStreamer[] sb = new BodyStreamer[1];
        EmbeddedChannel a = channelFor(sa);
        EmbeddedChannel b = channelFor(sb);
        // clients that read as fast as the loop writes: the channels stay writable, so only the scheduler decides
        for (EmbeddedChannel ch : List.of(a, b)) {
            ch.config().setWriteBufferWaterMark(new io.netty.channel.WriteBufferWaterMark(16 << 20, 32 << 20));
        }
        WriteScheduler scheduler = new WriteScheduler(a.eventLoop());
        AtomicLong sentA = new AtomicLong();
        AtomicLong sentB = new AtomicLong();
        AtomicReference<Boolean> doneA = new AtomicReference<>();
        AtomicReference<Boolean> doneB = new AtomicReference<>();
        long[] atEnd = {-1, -1}; // how far the other body was when each ended
        sa[0] = new BodyStreamer(a, new ArrayStoredObject(big, big.length, true, false),
                List.of(new BodyStreamer.Part(null, 0, -1)), null, sentA::addAndGet, ok -> {
                    atEnd[0] = sentB.get();
                    doneA.set(ok);
                }, scheduler, INLINE);
        sb[0] = new BodyStreamer(b, new ArrayStoredObject(big, big.length, true, false),
                List.of(new BodyStreamer.Part(null, 0, -1)), null, sentB::addAndGet, ok -> {
                    atEnd[1] = sentA.get();
                    doneB.set(ok);
                }, scheduler, INLINE);
        sa[0].start();
        sb[0].start();
        for (int i = 0; i < 10_000 && (doneA.get() == null || doneB.get() == null); i++) {
            a.runScheduledPendingTasks();
            a.runPendingTasks();
            b.runPendingTasks();
            drain(a, new ByteArrayOutputStream());
            drain(b, new ByteArrayOutputStream());
        }
        assertThat(doneA.get()).isTrue();
        assertThat(doneB.get()).isTrue();
        // they take turns, not one after the other: when one ends, the other is at most a turn behind
        assertThat(Math.min(atEnd[0], atEnd[1])).isGreaterThanOrEqualTo(big.length - WriteScheduler.TURN_BYTES
                - WriteScheduler.SLICE_BYTES);
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void framesPartsWithTheirPrefixesAndTheTrailer() {
        byte[] body = data(5000);
        ArrayStoredObject obj = new ArrayStoredObject(body, body.length, true, true);
        EmbeddedChannel ch = new EmbeddedChannel();
        ByteBuf p1 = Unpooled.copiedBuffer("<1>", StandardCharsets.US_ASCII);
        ByteBuf p2 = Unpooled.copiedBuffer("<2>", StandardCharsets.US_ASCII);
        ByteBuf trailer = Unpooled.copiedBuffer("<end>", StandardCharsets.US_ASCII);
        AtomicReference<Boolean> done = new AtomicReference<>();
        streamer(ch, obj, List.of(new BodyStreamer.Part(p1, 0, 10), new BodyStreamer.Part(p2, 4990, 5000)),
                trailer, n -> { }, done::set).start();
                turns(ch);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(drain(ch, out)).isTrue();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes("<1>".getBytes(StandardCharsets.US_ASCII));
        expected.write(body, 0, 10);
        expected.writeBytes("<2>".getBytes(StandardCharsets.US_ASCII));
        expected.write(body, 4990, 10);
        expected.writeBytes("<end>".getBytes(StandardCharsets.US_ASCII));
        assertThat(out.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(done.get()).isTrue();
        assertThat(p1.refCnt()).isZero();
        assertThat(p2.refCnt()).isZero();
        assertThat(trailer.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void followsAnObjectThatIsStillBeingWritten() {
        byte[] body = data(30_000);
        ArrayStoredObject obj = new ArrayStoredObject(body, 1000, false, true);
        EmbeddedChannel ch = new EmbeddedChannel();
        AtomicReference<Boolean> done = new AtomicReference<>();
        BodyStreamer s = streamer(ch, obj, List.of(new BodyStreamer.Part(null, 0, -1)), null, n -> { },
                done::set);
        s.start();
        turns(ch);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(drain(ch, out)).isFalse();
        assertThat(out.size()).isEqualTo(1000);
        obj.append(9000, false);
        turns(ch);
        assertThat(drain(ch, out)).isFalse();
        assertThat(out.size()).isEqualTo(10_000);
        obj.append(20_000, true);
        turns(ch);
        assertThat(drain(ch, out)).isTrue();
        assertThat(out.toByteArray()).isEqualTo(body);
        assertThat(done.get()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void anAbortedWriteClosesTheConnectionInsteadOfEndingTheBody() {
        byte[] body = data(10_000);
        ArrayStoredObject obj = new ArrayStoredObject(body, 4000, false, false);
        EmbeddedChannel ch = new EmbeddedChannel();
        AtomicReference<Boolean> done = new AtomicReference<>();
        streamer(ch, obj, List.of(new BodyStreamer.Part(null, 0, 10_000)), null, n -> { }, done::set).start();
        turns(ch);
        obj.abort();
        turns(ch);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(drain(ch, out)).isFalse();
        assertThat(out.size()).isEqualTo(4000);
        assertThat(ch.isOpen()).isFalse();
        assertThat(done.get()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void anObjectShorterThanAnnouncedIsTreatedAsTruncation() {
        byte[] body = data(100);
        ArrayStoredObject obj = new ArrayStoredObject(body, 100, true, false);
        EmbeddedChannel ch = new EmbeddedChannel();
        AtomicReference<Boolean> done = new AtomicReference<>();
        streamer(ch, obj, List.of(new BodyStreamer.Part(null, 0, 200)), null, n -> { }, done::set).start();
        turns(ch);
        turns(ch);
        assertThat(drain(ch, new ByteArrayOutputStream())).isFalse();
        assertThat(ch.isOpen()).isFalse();
        assertThat(done.get()).isFalse();
        ch.finishAndReleaseAll();
    }
    @Test
    void fileSlicesGoOutAsRegionsThatLeaveTheEnginesFileOpen(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        byte[] body = data(50_000);
        java.nio.file.Path file = dir.resolve("object.bin");
        java.nio.file.Files.write(file, body);
        try (java.nio.channels.FileChannel fc = java.nio.channels.FileChannel.open(file)) {
            ArrayStoredObject obj = new ArrayStoredObject(body, body.length, true, false);
            obj.file = fc;
            obj.maxSlice = 20_000;
            EmbeddedChannel ch = new EmbeddedChannel();
            AtomicReference<Boolean> done = new AtomicReference<>();
            streamer(ch, obj, List.of(new BodyStreamer.Part(null, 100, 50_000)), null, n -> { }, done::set)
                    .start();
                    turns(ch);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Object m;
            int regions = 0;
            while ((m = ch.readOutbound()) != null) {
                if (m instanceof io.netty.channel.FileRegion r) {
                    regions++;
                    java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
                    java.nio.channels.WritableByteChannel target = java.nio.channels.Channels.newChannel(sink);
                    while (r.transferred() < r.count()) {
                        r.transferTo(target, r.transferred());
                    }
                    out.writeBytes(sink.toByteArray());
                }
                ReferenceCountUtil.release(m);
            }
            assertThat(regions).isEqualTo(3);
            assertThat(out.toByteArray()).isEqualTo(java.util.Arrays.copyOfRange(body, 100, 50_000));
            assertThat(fc.isOpen()).as("the engine's file stays open after the regions are released").isTrue();
            assertThat(done.get()).isTrue();
            ch.finishAndReleaseAll();
        }
    }
}
