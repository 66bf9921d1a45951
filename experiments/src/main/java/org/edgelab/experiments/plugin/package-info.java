/**
 * What every EdgeLab plugin kind of the experiments module shares: its settings ({@link
 * org.edgelab.experiments.plugin.Setting}, {@link org.edgelab.experiments.plugin.PluginSettings}) and
 * the error that names a bad one ({@link org.edgelab.experiments.plugin.SettingException}), so the
 * descriptor loader can point at the file, line and column. The registries themselves are
 * {@link org.edgelab.plugin.PluginRegistry}s, one per kind, next to each kind's interface.
 */
package org.edgelab.experiments.plugin;
