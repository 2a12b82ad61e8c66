#ifndef _COMPLEX_H
#define _COMPLEX_H
/* Complex numbers are floating point, outside the subset: an object of a
   complex type is refused where it is declared. */
#define complex _Complex
#define I (1.0fi)
#endif
