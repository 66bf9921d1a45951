package org.edgelab.plugin;

import java.util.Collection;

/** No plugin of a kind is registered under the requested name; the message lists those that are. */
public final class UnknownPluginException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnknownPluginException(String kind, String name, Collection<String> known) {
        super("unknown " + kind + " '" + name + "'; known " + kind + "s: "
                + (known.isEmpty() ? "none (is the plugin's jar on the class path?)" : String.join(", ", known)));
    }
}
