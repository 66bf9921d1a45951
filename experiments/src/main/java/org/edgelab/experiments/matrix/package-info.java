/** Matrix expansion: a descriptor's crossed dimensions become cells with stable ids. */
package org.edgelab.experiments.matrix;
