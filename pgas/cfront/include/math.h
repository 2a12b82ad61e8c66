#ifndef _MATH_H
#define _MATH_H
/* Floating point is outside the subset: these are declared so that a
   program including <math.h> compiles, and a call is refused by name. */
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
double fabs(double x);
double sqrt(double x);
double pow(double x, double y);
double ceil(double x);
double floor(double x);
double log(double x);
double log2(double x);
double exp(double x);
double sin(double x);
double cos(double x);
#endif
