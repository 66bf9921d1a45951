package org.edgelab.loadgen.client;

import java.util.function.ToIntFunction;

import org.edgelab.loadgen.measure.ErrorClass;
import org.edgelab.loadgen.workload.RequestSlot;

/**
 * One logical connection of a load spread over several servers ({@link org.edgelab.loadgen.Shards}): one keep-alive
 * {@link HttpConnection} per server, of which at most one has a request at a time, as a single connection would. The
 * member asked for the next request claims it from the run; if the router names another server, the request waits in
 * this driver and that server's member is woken to send it, so each request leaves on the connection to its server
 * without reconnecting and the run's schedule, bounds and request numbers stay those of one connection.
 *
 * <p>Thread-safety: every member must live on one event loop; the driver is confined to it (no locks).
 */
final class ShardedDriver {
    private final FetchDriver run;
    private final ToIntFunction<String> router;
    private final HttpConnection[] members;
    private final RequestSlot pending = new RequestSlot();
    private int pendingFor = -1;
    private long pendingToken;
    private long pendingDue;
    private boolean busy;
    private boolean done;
    private int finished;

    /** A logical connection over {@code servers} servers whose requests come from {@code run}. */
    ShardedDriver(FetchDriver run, ToIntFunction<String> router, int servers) {
        this.run = run;
        this.router = router;
        this.members = new HttpConnection[servers];
    }

    /** The driver of the member connection to server {@code server}. */
    FetchDriver member(int server) {
        return new Member(server);
    }

    /** Sets the connection to server {@code server}, which {@link #member}{@code (server)} leads. */
    void connection(int server, HttpConnection connection) {
        members[server] = connection;
    }

    private static void copy(RequestSlot from, RequestSlot to) {
        if (from.rangeStart >= 0) {
            to.range(from.path, from.syntheticId, from.objectSize, from.rangeStart, from.rangeEnd);
        } else {
            to.full(from.path, from.syntheticId, from.objectSize);
        }
        to.firstTime = from.firstTime;
    }

    /** The role of the connection to one server. */
    private final class Member implements FetchDriver {
        private final int server;
        private long due;

        Member(int server) {
            this.server = server;
        }

        @Override
        public long nextFetch(RequestSlot slot) {
            if (pendingFor == server) {
                pendingFor = -1;
                copy(pending, slot);
                due = pendingDue;
                return pendingToken;
            }
            if (done) {
                return DONE;
            }
            if (busy || pendingFor >= 0) {
                return WAIT;
            }
            long token = run.nextFetch(pending);
            if (token == WAIT) {
                return WAIT;
            }
            if (token < 0) {
                done = true;
                for (HttpConnection other : members) {
                    if (other != members[server]) {
                        other.wake(); // an idle member asks again and hears DONE
                    }
                }
                return DONE;
            }
            busy = true;
            int to = router.applyAsInt(pending.path);
            if (to < 0 || to >= members.length) {
                throw new IllegalStateException("the router sent " + pending.path + " to server " + to + " of " + members.length);
            }
            if (to == server) {
                copy(pending, slot);
                due = run.dueNanos();
                return token;
            }
            pendingFor = to;
            pendingToken = token;
            pendingDue = run.dueNanos();
            members[to].wake(); // sends it now if connected, else once its connection is up
            return WAIT;
        }

        @Override
        public long dueNanos() {
            return due;
        }

        @Override
        public void sending(long token) {
            run.sending(token);
        }

        @Override
        public void fetched(long token, ErrorClass error, long sentNanos, long endNanos, long bodyBytes) {
            busy = false;
            run.fetched(token, error, sentNanos, endNanos, bodyBytes);
        }

        @Override
        public boolean stopping() {
            return run.stopping();
        }

        @Override
        public void connectionFinished() {
            if (++finished == members.length) {
                run.connectionFinished();
            }
        }
    }
}
