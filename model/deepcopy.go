package model

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
)

// The ToolHive snapshot types are runtime.Objects: they can live in an
// informer cache, be produced by a cache TransformFunc and be handed to
// anything that copies objects the Kubernetes way. The copies are written out
// by hand (the types are small) and share nothing with the original.

var (
	_ runtime.Object = (*MCPServer)(nil)
	_ runtime.Object = (*MCPRemoteProxy)(nil)
	_ runtime.Object = (*VirtualMCPServer)(nil)
	_ runtime.Object = (*MCPGroup)(nil)
	_ runtime.Object = (*MCPServerEntry)(nil)
)

func (g *GroupRef) deepCopy() *GroupRef {
	if g == nil {
		return nil
	}
	c := *g
	return &c
}

// DeepCopyInto copies s into out; out shares nothing with s.
func (s *MCPServer) DeepCopyInto(out *MCPServer) {
	*out = *s
	s.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.GroupRef = s.Spec.GroupRef.deepCopy()
}

// DeepCopy returns a copy of s sharing nothing with it; nil for nil.
func (s *MCPServer) DeepCopy() *MCPServer {
	if s == nil {
		return nil
	}
	out := new(MCPServer)
	s.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (s *MCPServer) DeepCopyObject() runtime.Object {
	if c := s.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies p into out; out shares nothing with p.
func (p *MCPRemoteProxy) DeepCopyInto(out *MCPRemoteProxy) {
	*out = *p
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.GroupRef = p.Spec.GroupRef.deepCopy()
}

// DeepCopy returns a copy of p sharing nothing with it; nil for nil.
func (p *MCPRemoteProxy) DeepCopy() *MCPRemoteProxy {
	if p == nil {
		return nil
	}
	out := new(MCPRemoteProxy)
	p.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (p *MCPRemoteProxy) DeepCopyObject() runtime.Object {
	if c := p.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies v into out; out shares nothing with v.
func (v *VirtualMCPServer) DeepCopyInto(out *VirtualMCPServer) {
	*out = *v
	v.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.GroupRef = v.Spec.GroupRef.deepCopy()
}

// DeepCopy returns a copy of v sharing nothing with it; nil for nil.
func (v *VirtualMCPServer) DeepCopy() *VirtualMCPServer {
	if v == nil {
		return nil
	}
	out := new(VirtualMCPServer)
	v.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (v *VirtualMCPServer) DeepCopyObject() runtime.Object {
	if c := v.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies g into out; out shares nothing with g.
func (g *MCPGroup) DeepCopyInto(out *MCPGroup) {
	*out = *g
	g.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

// DeepCopy returns a copy of g sharing nothing with it; nil for nil.
func (g *MCPGroup) DeepCopy() *MCPGroup {
	if g == nil {
		return nil
	}
	out := new(MCPGroup)
	g.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (g *MCPGroup) DeepCopyObject() runtime.Object {
	if c := g.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies e into out; out shares nothing with e.
func (e *MCPServerEntry) DeepCopyInto(out *MCPServerEntry) {
	*out = *e
	e.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.GroupRef = e.Spec.GroupRef.deepCopy()
	if r := e.Spec.ExternalAuthConfigRef; r != nil {
		c := *r
		out.Spec.ExternalAuthConfigRef = &c
	}
	if h := e.Spec.HeaderForward; h != nil {
		c := HeaderForward{AddPlaintextHeaders: maps.Clone(h.AddPlaintextHeaders)}
		if h.AddHeadersFromSecret != nil {
			c.AddHeadersFromSecret = slices.Clone(h.AddHeadersFromSecret)
			for i, s := range c.AddHeadersFromSecret {
				if s.ValueSecretRef != nil {
					ref := *s.ValueSecretRef
					c.AddHeadersFromSecret[i].ValueSecretRef = &ref
				}
			}
		}
		out.Spec.HeaderForward = &c
	}
	if b := e.Spec.CABundleRef; b != nil {
		c := CABundleRef{}
		if r := b.ConfigMapRef; r != nil {
			ref := *r
			if r.Optional != nil {
				opt := *r.Optional
				ref.Optional = &opt
			}
			c.ConfigMapRef = &ref
		}
		out.Spec.CABundleRef = &c
	}
}

// DeepCopy returns a copy of e sharing nothing with it; nil for nil.
func (e *MCPServerEntry) DeepCopy() *MCPServerEntry {
	if e == nil {
		return nil
	}
	out := new(MCPServerEntry)
	e.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (e *MCPServerEntry) DeepCopyObject() runtime.Object {
	if c := e.DeepCopy(); c != nil {
		return c
	}
	return nil
}
