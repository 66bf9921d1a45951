package org.edgelab.loadgen.link;

import java.util.Collection;

import io.netty.channel.Channel;
import org.edgelab.loadgen.LinkEmulation;
import org.edgelab.plugin.PluginRegistry;

/**
 * The registry of {@link LinkEmulator}s on the class path, by name ({@code META-INF/services}); an unknown
 * name fails listing the known ones, and an emulator that cannot emulate the link here fails saying what is
 * missing. Thread-safe.
 */
public final class LinkEmulators {
    /** The name of the built-in user-space emulator. */
    public static final String USER_SPACE = UserSpaceLinkEmulator.NAME;

    private static final class Holder {
        static final PluginRegistry<LinkEmulator> REGISTRY = PluginRegistry.load("link emulator", LinkEmulator.class);
    }

    /** The link of a load that emulates nothing. */
    private static final Link NONE = new Link() {
        @Override
        public String emulation() {
            return "none";
        }

        @Override
        public void attach(Channel channel) {
        }

        @Override
        public long bytesDown() {
            return 0;
        }

        @Override
        public long bytesUp() {
            return 0;
        }

        @Override
        public void close() {
        }
    };

    private LinkEmulators() {
    }

    /** The known emulator names, sorted. */
    public static Collection<String> names() {
        return Holder.REGISTRY.names();
    }

    /** The emulator registered under {@code name}. */
    public static LinkEmulator get(String name) {
        return Holder.REGISTRY.get(name);
    }

    /**
     * Opens {@code link} with the emulator it names (nothing for {@link LinkEmulation#NONE}); throws
     * IllegalArgumentException naming what is missing when that emulator cannot emulate it here.
     */
    public static Link open(LinkEmulation link) {
        if (link.isNone()) {
            return NONE;
        }
        LinkEmulator emulator = get(link.emulator());
        emulator.unavailable(link).ifPresent(reason -> {
            throw new IllegalArgumentException("link emulator '" + emulator.name() + "' cannot emulate "
                    + link.describe() + " here: " + reason);
        });
        return emulator.open(link);
    }
}
