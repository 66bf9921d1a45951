package org.edgelab.plugin;

/** A plugin kind for the registry's tests, with two implementations registered in this module's test service file. */
public interface ExamplePlugin extends NamedPlugin {

    /** The first registered example. */
    final class First implements ExamplePlugin {
        @Override
        public String name() {
            return "first";
        }

        @Override
        public String description() {
            return "the first example";
        }
    }

    /** The second registered example. */
    final class Second implements ExamplePlugin {
        @Override
        public String name() {
            return "second";
        }

        @Override
        public String description() {
            return "the second example";
        }
    }
}
