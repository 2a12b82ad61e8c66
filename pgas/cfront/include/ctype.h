#ifndef _CTYPE_H
#define _CTYPE_H
/* Declared so that a program including <ctype.h> compiles; a call is
   refused by name (the character classes are the C library's locale). */
int isdigit(int c);
int isalpha(int c);
int isalnum(int c);
int isspace(int c);
int isupper(int c);
int islower(int c);
int isprint(int c);
int toupper(int c);
int tolower(int c);
#endif
